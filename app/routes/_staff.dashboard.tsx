import { SiteLink } from "~/components/shared";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { DashboardTiles } from "~/components/staff/DashboardTiles";
import { MoneyProblemsSection } from "~/components/staff/MoneyProblemsSection";
import { TaxRecordsSection, type TaxRecordProblem } from "~/components/staff/TaxRecordsSection";
import { failedTaxTransactions, retryTaxTransaction } from "~/tax/tax-transactions.server";
import { listMoneyProblems, refundPayment, type MoneyProblems } from "~/payments/money-problems.server";
import { OrderPanel } from "~/components/staff/OrderPanel";
import { OrdersTable } from "~/components/staff/OrdersTable";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { verifyCsrf } from "~/staff/csrf.server";
import {
  dashboardTiles,
  listOrders,
  normalizeQuery,
  orderDetail,
  parsePage,
  updateOrderStatus,
  type DashboardTiles as Tiles,
  type OrderDetail,
  type OrderRow,
} from "~/staff/dashboard.server";
import { requireOwner, requireStaff } from "~/staff/guard.server";
import { mayDo, type StaffRole } from "~/staff/roles";
import type { Flash } from "~/staff/session.server";
import {
  dashboardHref,
  FORM_EXPIRED,
  STATUS_FAILED,
  STATUS_REFUNDED,
  STATUS_TEST_CANCELLED,
  STATUS_UNEXPECTED,
  STATUS_UPDATED,
  type DashboardState,
} from "~/staff/view";
import { captureOrderPayment } from "~/payments/order-payment.server";
import { dashboardForm, DELIVERY_DATE_MALFORMED, shipmentSchema, TRACKING_REQUIRED } from "~/staff/dashboard-form.server";
import { announceRefund, announceStatus, recordDelivery } from "~/orders/shipping.server";
import { parseForm, readForm, requirePost } from "~/utils/forms.server";
import { logError } from "~/observability/logger.server";
import type { RouteHandle } from "~/root";
import { REFUSAL_STATUS } from "~/http/refusals";

export const handle: RouteHandle = { indexing: "private, nofollow" };

export const meta: MetaFunction = () => [{ title: "Dashboard | Staff" }];

type DashboardData = {
  staffEmail: string;
  staffRole: StaffRole;
  /** Owners only: a staff account sees no Refund button (and the action refuses it). */
  mayRefund: boolean;
  csrf: string;
  state: DashboardState;
  tiles: Tiles;
  rows: OrderRow[];
  hasNext: boolean;
  selected: OrderDetail | null;
  selectedMissing: boolean;
  money: MoneyProblems;
  taxRecords: TaxRecordProblem[];
  flash: Flash | null;
};

type ActionData = { flash: Flash };

function stateFrom(params: URLSearchParams): DashboardState {
  const order = params.get("order")?.trim().toUpperCase().slice(0, 40) || null;
  return { q: normalizeQuery(params.get("q")), page: parsePage(params.get("page")), order };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const db = context.store.db;
  const staff = await requireStaff(context.store, request);
  const state = stateFrom(new URL(request.url).searchParams);
  const [tiles, list, detail, money, failedTax] = await Promise.all([
    dashboardTiles(db),
    listOrders(db, { query: state.q, page: state.page }),
    state.order ? orderDetail(db, state.order) : null,
    listMoneyProblems(db),
    failedTaxTransactions(db),
  ]);
  const flash = staff.flash;
  return data<DashboardData>(
    {
      staffEmail: staff.staff.email,
      staffRole: staff.staff.role,
      mayRefund: mayDo(staff.staff.role, "refunds"),
      csrf: staff.csrf,
      state,
      tiles,
      rows: list.rows,
      hasNext: list.hasNext,
      selected: detail,
      selectedMissing: Boolean(state.order) && !detail,
      money,
      taxRecords: failedTax.map((record) => ({
        id: record.id,
        orderId: record.orderId,
        kind: record.kind,
        reference: record.reference,
        taxCents: record.taxCents,
        attempts: record.attempts,
        lastError: record.lastError,
        createdAt: record.createdAt.toISOString(),
      })),
      flash,
    },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

/**
 * intent=status: checked in order — a session (else /login), the CSRF token
 * (else 403, nothing changes), the fields (zod, in updateOrderStatus). A
 * success redirects back with a flash message, so a reload never re-posts
 * and the list, tiles and panel show the new status. intent=refund is an
 * owner's (app/staff/roles.ts): a staff account gets this page with 403 and
 * nothing is read, written or asked of the provider. The other intents move
 * no money back (a status change, Cancelled included, refunds nothing: the
 * cancelled order's payment is refunded with intent=refund) and stay open to staff.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  const db = context.store.db;
  const staff = await requireStaff(context.store, request);
  const state = stateFrom(new URL(request.url).searchParams);
  const reply = async (flash: Flash, status: number) =>
    data<ActionData>({ flash }, { status, headers: { "Set-Cookie": await staff.commit() } });

  const form = await readForm(request, context.store.config);
  if (!verifyCsrf(staff.csrf, form)) return reply({ kind: "error", message: FORM_EXPIRED }, 403);
  const parsed = parseForm(dashboardForm, form);
  if (!parsed.ok) return reply({ kind: "error", message: STATUS_FAILED }, 400);

  if (parsed.data.intent === "refund") {
    const refused = requireOwner(staff, "refunds");
    if (refused) return reply({ kind: "error", message: refused.message }, refused.status);
    const refund = await refundPayment(context.store, parsed.data.attemptId, staff.staff.email);
    if (!refund.ok) return reply({ kind: "error", message: refund.message }, REFUSAL_STATUS[refund.refusal]);
    await announceRefund(context.store, parsed.data.attemptId);
    await staff.setFlash({ kind: "success", message: refund.message });
    return redirect(`${dashboardHref(state)}#money-heading`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
  }

  if (parsed.data.intent === "tax-retry") {
    if (!(await retryTaxTransaction(context.store, parsed.data.recordId))) return reply({ kind: "error", message: TAX_RETRY_REFUSED }, 409);
    await staff.setFlash({ kind: "success", message: TAX_RETRY_QUEUED });
    return redirect(`${dashboardHref(state)}#tax-records-heading`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
  }

  if (parsed.data.intent === "delivered" || parsed.data.intent === "delivered-test") {
    const { orderId } = parsed.data;
    const deliveredAt = parsed.data.intent === "delivered" ? new Date(`${parsed.data.deliveredOn}T12:00:00Z`) : new Date();
    if (deliveredAt.getTime() > Date.now() + 86_400_000) return reply({ kind: "error", message: DELIVERY_DATE_MALFORMED }, 400);
    const delivered = await recordDelivery(db, orderId, deliveredAt, { testOrderOnly: parsed.data.intent === "delivered-test" });
    if (!delivered.ok)
      return reply({ kind: "error", message: DELIVERY_REFUSALS[delivered.reason] }, delivered.reason === "not-found" ? 404 : 409);
    await staff.setFlash({ kind: "success", message: DELIVERY_RECORDED });
    return redirect(dashboardHref({ ...state, order: orderId.trim().toUpperCase() }), {
      status: 303,
      headers: { "Set-Cookie": await staff.commit() },
    });
  }

  const { orderId, status } = parsed.data;
  // Shipped takes a carrier and a tracking number: without them nothing is asked of the provider and nothing changes.
  const shipment =
    status === "Shipped"
      ? shipmentSchema.safeParse({ carrier: parsed.data.carrier ?? "", trackingNumber: parsed.data.trackingNumber ?? "" })
      : null;
  if (shipment && !shipment.success) return reply({ kind: "error", message: shipment.error.issues[0]?.message ?? STATUS_FAILED }, 400);
  try {
    // An Affirm loan is captured when its order ships; a refused capture leaves the order as it was.
    if (status === "Shipped") {
      const capture = await captureOrderPayment(context.store, orderId);
      if (!capture.ok) return reply({ kind: "error", message: capture.message }, 502);
    }
    const result = await updateOrderStatus(context.store, { orderId, status, staff: staff.staff, shipment: shipment?.data ?? null });
    if (!result.ok) {
      if (result.reason === "out-of-stock") return reply({ kind: "error", message: `${result.message} The order stays Cancelled.` }, 409);
      const refusal = STATUS_REFUSALS[result.reason];
      return reply({ kind: "error", message: refusal.message }, refusal.status);
    }
    // The shopper's email (once per event, by its reference) and the parcel's tracker, after the change is committed.
    await announceStatus(context.store, {
      orderId,
      to: result.to,
      shipment: result.shipment,
      sessionSecret: context.store.sessionSecret,
    });
    await staff.setFlash({ kind: "success", message: result.shipment === "corrected" ? TRACKING_CORRECTED : STATUS_UPDATED });
    return redirect(dashboardHref({ ...state, order: orderId.trim().toUpperCase() }), {
      status: 303,
      headers: { "Set-Cookie": await staff.commit() },
    });
  } catch (error) {
    logError("Order status update failed", error);
    return reply({ kind: "error", message: STATUS_UNEXPECTED }, 500);
  }
}

const STATUS_REFUSALS = {
  "not-found": { message: STATUS_FAILED, status: 404 },
  "invalid-status": { message: STATUS_FAILED, status: 400 },
  refunded: { message: STATUS_REFUNDED, status: 409 },
  "test-cancelled": { message: STATUS_TEST_CANCELLED, status: 409 },
  "shipment-required": { message: TRACKING_REQUIRED, status: 400 },
} as const;

const DELIVERY_RECORDED = "Delivery date recorded.";
const TAX_RETRY_QUEUED = "The tax record is being sent to the tax provider again.";
const TAX_RETRY_REFUSED = "This tax record is not waiting for a retry (it was recorded or is being sent).";
const TRACKING_CORRECTED = "Tracking details corrected; the customer was emailed the new ones.";
const DELIVERY_REFUSALS = {
  "not-found": STATUS_FAILED,
  "not-shipped": "Only a shipped order with a tracking number can be marked delivered.",
  "not-test": "Only a test order can be marked delivered without a date.",
} as const;

export default function Dashboard() {
  const { staffEmail, staffRole, mayRefund, csrf, state, tiles, rows, hasNext, selected, selectedMissing, money, taxRecords, flash } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const message = actionData?.flash ?? flash;

  const hrefFor = (orderId: string) => dashboardHref({ ...state, order: orderId });
  const formAction = dashboardHref(state);

  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <h1>Dashboard</h1>
      <StaffMessage message={message} />

      <DashboardTiles tiles={tiles} />

      <div className={selected ? "staff-layout staff-layout--panel" : "staff-layout"}>
        <section className="staff-orders" aria-labelledby="orders-heading">
          <div className="staff-orders__head">
            <h2 id="orders-heading">Orders</h2>
            <Form method="get" action="/dashboard" className="staff-search" role="search">
              <label htmlFor="staff-search">Search orders</label>
              <input
                id="staff-search"
                type="search"
                name="q"
                defaultValue={state.q}
                key={state.q}
                placeholder="Order ID, name or email"
                maxLength={100}
              />
              <button type="submit" className="button button--small button--dark">
                Search
              </button>
              {state.q ? (
                <SiteLink to="/dashboard" className="staff-search__clear">
                  Clear search
                </SiteLink>
              ) : null}
            </Form>
          </div>
          {selectedMissing ? (
            <p className="notice notice--error" role="alert">
              Order {state.order} was not found.
            </p>
          ) : null}
          <OrdersTable
            rows={rows}
            selectedId={selected?.orderId ?? null}
            hrefFor={hrefFor}
            caption={state.q ? `Orders matching “${state.q}”, newest first` : "Orders, newest first"}
          />
          <nav className="staff-pager" aria-label="Order pages">
            {state.page > 1 ? (
              <SiteLink to={dashboardHref({ q: state.q, page: state.page - 1 })} rel="prev">
                ← Newer orders
              </SiteLink>
            ) : (
              <span />
            )}
            <span>Page {state.page}</span>
            {hasNext ? (
              <SiteLink to={dashboardHref({ q: state.q, page: state.page + 1 })} rel="next">
                Older orders →
              </SiteLink>
            ) : (
              <span />
            )}
          </nav>
        </section>
        {selected ? (
          <OrderPanel order={selected} csrf={csrf} closeHref={dashboardHref({ ...state, order: null })} formAction={formAction} />
        ) : null}
      </div>

      <MoneyProblemsSection problems={money} csrf={csrf} formAction={formAction} hrefFor={hrefFor} mayRefund={mayRefund} />
      <TaxRecordsSection records={taxRecords} csrf={csrf} formAction={formAction} hrefFor={hrefFor} />
    </StaffPage>
  );
}
