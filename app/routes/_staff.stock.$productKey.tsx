import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTimeUtc, SiteLink } from "~/components/shared";
import { CsrfField } from "~/components/staff/CsrfField";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffTable } from "~/components/staff/StaffTable";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireStaff } from "~/staff/guard.server";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { stockProductHref } from "~/stock/stock-desk";
import { SET_COUNT_STATUS, setCountForm, setCountFromDesk, stockDetail } from "~/stock/stock-desk.server";
import { MAX_ON_HAND, STOCK_REASON_MAX } from "~/stock/stock-import";
import { parseForm, readForm, requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = ({ params }) => [{ title: `${params.productKey ?? "Product"} | Stock` }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const productKey = (params.productKey ?? "").slice(0, 200);
  const detail = await stockDetail(context.store.db, productKey);
  if (!detail) throw new Response(`No product ${productKey.slice(0, 60)} has stock.`, { status: 404 });
  return data(
    { staffEmail: staff.staff.email, staffRole: staff.staff.role, csrf: staff.csrf, flash: staff.flash, ...detail },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

type ActionData = { flash: Flash; fields?: { onHand: string; reason: string } };

/**
 * "Set on hand": the session, the CSRF token, a whole number from 0 to MAX_ON_HAND, a reason, and the count
 * the page showed. A success redirects back here (303) with its message in the session; a refusal is this
 * page again with its message: 400 for the form, 403 for the token, 404, 409 for a count that changed since
 * the page was shown, a product made to order or units held by checkouts paying now.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const productKey = (params.productKey ?? "").slice(0, 200);
  const reply = async (flash: Flash, status: number, fields?: ActionData["fields"]) =>
    data<ActionData>({ flash, fields }, { status, headers: { "Set-Cookie": await staff.commit() } });

  const form = await readForm(request, context.store.config);
  if (!verifyCsrf(staff.csrf, form)) return reply({ kind: "error", message: FORM_EXPIRED }, 403);
  const fields = { onHand: (form.onHand ?? "").slice(0, 40), reason: (form.reason ?? "").slice(0, 2000) };
  const parsed = parseForm(setCountForm, form);
  if (!parsed.ok) return reply({ kind: "error", message: Object.values(parsed.errors)[0] ?? "Please check the form." }, 400, fields);

  const result = await setCountFromDesk(context.store, {
    productKey,
    onHand: parsed.data.onHand,
    reason: parsed.data.reason,
    actor: staff.staff.email,
    expectedOnHand: parsed.data.expectedOnHand,
  });
  if (!result.ok) return reply({ kind: "error", message: result.message }, SET_COUNT_STATUS[result.reason], fields);
  await staff.setFlash({
    kind: "success",
    message: result.changed
      ? `On hand is now ${parsed.data.onHand} (it was ${parsed.data.expectedOnHand}).`
      : `On hand was already ${parsed.data.onHand}: nothing changed.`,
  });
  return redirect(stockProductHref(productKey), { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

export default function ProductStock() {
  const { staffEmail, staffRole, csrf, flash, row, movements } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const message = actionData?.flash ?? flash;
  const tracked = row.policy === "tracked";
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/stock">← All stock</SiteLink>
      </p>
      <h1>{row.title}</h1>
      <StaffMessage message={message} />
      <dl className="order-panel__meta" data-testid="stock-facts">
        <dt>Product key</dt>
        <dd>{row.productKey}</dd>
        {row.brand ? (
          <>
            <dt>Brand and model</dt>
            <dd>
              {row.brand} {row.model}
            </dd>
          </>
        ) : null}
        <dt>Policy</dt>
        <dd>{tracked ? "Tracked" : `Made to order${row.leadTime ? `: ships in ${row.leadTime}` : ""}`}</dd>
        {tracked ? (
          <>
            <dt>On hand</dt>
            <dd data-testid="on-hand">{row.onHand}</dd>
            <dt>Held by checkouts paying now</dt>
            <dd data-testid="held">{row.reserved}</dd>
            <dt>Available to shoppers</dt>
            <dd data-testid="available">{row.available}</dd>
          </>
        ) : null}
        <dt>Last change</dt>
        <dd>{row.lastChange ? formatDateTimeUtc(row.lastChange) : "none yet"}</dd>
      </dl>

      {tracked ? (
        <section aria-labelledby="set-heading">
          <h2 id="set-heading">Set on hand</h2>
          <Form method="post" action={stockProductHref(row.productKey)} className="status-form" key={row.onHand}>
            <CsrfField token={csrf} />
            <input type="hidden" name="expectedOnHand" value={row.onHand} />
            <div className="field">
              <label htmlFor="stock-on-hand">On hand (units in the warehouse)</label>
              <input
                id="stock-on-hand"
                name="onHand"
                type="number"
                inputMode="numeric"
                min={Math.max(0, row.reserved)}
                max={MAX_ON_HAND}
                step={1}
                required
                defaultValue={actionData?.fields?.onHand ?? String(row.onHand)}
                aria-describedby="stock-on-hand-hint"
              />
            </div>
            <div className="field">
              <label htmlFor="stock-reason">Reason</label>
              <input
                id="stock-reason"
                name="reason"
                type="text"
                required
                maxLength={STOCK_REASON_MAX}
                defaultValue={actionData?.fields?.reason ?? ""}
                placeholder="Counted in the warehouse"
              />
            </div>
            <button type="submit" className="button button--dark">
              Set on hand
            </button>
            <p id="stock-on-hand-hint" className="staff-muted">
              A whole number from {Math.max(0, row.reserved)} to {MAX_ON_HAND.toLocaleString("en-US")}: never fewer than the {row.reserved}{" "}
              held by checkouts paying now. If the count changes before you send this, nothing is set and you are told.
            </p>
          </Form>
        </section>
      ) : (
        <p>This product is made to order: it has no count to set.</p>
      )}

      <section aria-labelledby="movements-heading">
        <h2 id="movements-heading">Movements</h2>
        {movements.length === 0 ? (
          <p className="staff-empty">No movement yet.</p>
        ) : (
          <StaffTable
            caption="The last 50 movements, newest first"
            columns={["When", "Change", "On hand after", "Reason", "Who"]}
            testId="movements"
          >
            {movements.map((movement) => (
              <tr key={movement.id} data-testid="movement">
                <th scope="row">{formatDateTimeUtc(movement.createdAt)}</th>
                <td data-label="Change">{movement.delta > 0 ? `+${movement.delta}` : `−${Math.abs(movement.delta)}`}</td>
                <td data-label="On hand after">{movement.onHandAfter}</td>
                <td data-label="Reason">
                  {movement.reason}
                  {movement.orderId ? ` (order ${movement.orderId})` : ""}
                </td>
                <td data-label="Who">{movement.actor}</td>
              </tr>
            ))}
          </StaffTable>
        )}
      </section>
    </StaffPage>
  );
}
