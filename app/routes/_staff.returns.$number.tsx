import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTimeUtc, formatUsd, SiteLink } from "~/components/shared";
import { CsrfField } from "~/components/staff/CsrfField";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireOwner, requireStaff } from "~/staff/guard.server";
import { DONE_BY_AN_OWNER, mayDo } from "~/staff/roles";
import { deskDetail } from "~/staff/returns-desk.server";
import { approveRequest, declineRequest, receiveAndRefund } from "~/staff/returns-desk-flow.server";
import { deskForm } from "~/staff/returns-desk-form.server";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { parseForm, readForm, requirePost } from "~/utils/forms.server";
import { StaffTable } from "~/components/staff/StaffTable";
import { REFUSAL_STATUS } from "~/http/refusals";

export const meta: MetaFunction = ({ params }) => [{ title: `${params.number ?? "Request"} | Returns desk` }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const detail = await deskDetail(context.store.db, params.number ?? "");
  if (!detail) throw new Response(`Request ${String(params.number ?? "").slice(0, 30)} was not found.`, { status: 404 });
  return data(
    {
      staffEmail: staff.staff.email,
      staffRole: staff.staff.role,
      mayRefund: mayDo(staff.staff.role, "refunds"),
      csrf: staff.csrf,
      flash: staff.flash,
      detail,
    },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

type ActionData = { flash: Flash; fields?: Record<string, string> };

/**
 * approve, decline (reason) or receive (amount): the session, the CSRF token, the fields; a success redirects back here with its message.
 * Receiving a return is one decision with its refund (receiveAndRefund: the request becomes received only together with the refund,
 * even a $0.00 one), so `receive` is an owner's (app/staff/roles.ts): a staff account gets this page with 403 and nothing is written
 * or asked of the provider. Approving (the authorization number, the label) and declining move no money and stay open to staff.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const number = params.number ?? "";
  const reply = async (flash: Flash, status: number, fields?: Record<string, string>) =>
    data<ActionData>({ flash, fields }, { status, headers: { "Set-Cookie": await staff.commit() } });

  const form = await readForm(request, context.store.config);
  if (!verifyCsrf(staff.csrf, form)) return reply({ kind: "error", message: FORM_EXPIRED }, 403);
  const parsed = parseForm(deskForm, form);
  if (!parsed.ok) {
    const message = Object.values(parsed.errors)[0] ?? "Please check the form.";
    return reply({ kind: "error", message }, 400, { reason: form.reason ?? "", amount: form.amount ?? "" });
  }
  if (parsed.data.intent === "receive") {
    const refused = requireOwner(staff, "refunds");
    if (refused)
      return reply({ kind: "error", message: refused.message }, refused.status, { reason: form.reason ?? "", amount: form.amount ?? "" });
  }
  const step = { number, seen: parsed.data.seen, staff: staff.staff };
  const outcome =
    parsed.data.intent === "approve"
      ? await approveRequest(context.store, step)
      : parsed.data.intent === "decline"
        ? await declineRequest(context.store, { ...step, reason: parsed.data.reason })
        : await receiveAndRefund(context.store, { ...step, amount: parsed.data.amount, damaged: parsed.data.damaged === "on" });
  if (!outcome.ok)
    return reply({ kind: "error", message: outcome.message }, REFUSAL_STATUS[outcome.refusal], {
      reason: form.reason ?? "",
      amount: form.amount ?? "",
    });
  await staff.setFlash({ kind: "success", message: outcome.message });
  return redirect(`/returns/${encodeURIComponent(number.toUpperCase())}`, { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

export default function ReturnRequest() {
  const { staffEmail, staffRole, mayRefund, csrf, flash, detail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const message = actionData?.flash ?? flash;
  const kindName = detail.kind === "return" ? "Return" : "Defect claim";
  const formAction = `/returns/${detail.number}`;
  const canDecide = detail.status === "requested";
  const canDecline = detail.status === "requested" || (detail.status === "approved" && detail.kind === "return");
  const refund = detail.refund;
  const refundUnderWay = Boolean(detail.refundStartedAt) && !detail.refundedAt;

  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/returns">← All requests</SiteLink>
      </p>
      <h1>
        {kindName} {detail.number}
      </h1>
      <StaffMessage message={message} />

      <dl className="order-panel__meta" data-testid="request-facts">
        <dt>Status</dt>
        <dd data-testid="request-status">{detail.status}</dd>
        <dt>Order</dt>
        <dd>
          <SiteLink to={`/dashboard?order=${detail.order.orderId}`}>{detail.order.orderId}</SiteLink>
          {detail.order.paymentProvider === "test" ? " (TEST: no money moved)" : null}
        </dd>
        <dt>Customer</dt>
        <dd>
          {detail.order.customerName} ({detail.order.email})
        </dd>
        <dt>Reason</dt>
        <dd>{detail.reason}</dd>
        <dt>Requested</dt>
        <dd>{formatDateTimeUtc(detail.createdAt)}</dd>
        {detail.order.deliveredAt ? (
          <>
            <dt>Delivered</dt>
            <dd>{formatDateTimeUtc(detail.order.deliveredAt)}</dd>
          </>
        ) : null}
        {detail.serialNumber ? (
          <>
            <dt>Serial number</dt>
            <dd>{detail.serialNumber}</dd>
          </>
        ) : null}
        {detail.videoUrl ? (
          <>
            <dt>Video</dt>
            <dd>
              <a href={detail.videoUrl} rel="noopener noreferrer nofollow" target="_blank">
                {detail.videoUrl}
              </a>
            </dd>
          </>
        ) : null}
        {detail.authorizationNumber ? (
          <>
            <dt>Authorization</dt>
            <dd data-testid="authorization-number">{detail.authorizationNumber}</dd>
          </>
        ) : null}
        {detail.labelUrl ? (
          <>
            <dt>Label</dt>
            <dd>
              <a href={detail.labelUrl}>Return label or instructions</a>
            </dd>
          </>
        ) : null}
        {detail.declineReason ? (
          <>
            <dt>Declined because</dt>
            <dd>{detail.declineReason}</dd>
          </>
        ) : null}
        {detail.refundedAt ? (
          <>
            <dt>Refunded</dt>
            <dd data-testid="refunded">
              {formatUsd(detail.refundCents ?? 0)} on {formatDateTimeUtc(detail.refundedAt)} ({detail.refundReference})
            </dd>
          </>
        ) : null}
      </dl>

      {detail.note ? (
        <section aria-labelledby="note-heading">
          <h2 id="note-heading">Customer's note</h2>
          <p style={{ whiteSpace: "pre-wrap" }}>{detail.note}</p>
        </section>
      ) : null}

      <section aria-labelledby="lines-heading">
        <h2 id="lines-heading">Lines covered</h2>
        <StaffTable caption="The order lines this request covers" columns={["Product", "Model", "Unit price", "Ordered", "Covered"]}>
          {detail.lines.map((line) => (
            <tr key={line.lineIndex}>
              <th scope="row">{line.title}</th>
              <td>{line.model}</td>
              <td>{formatUsd(line.unitPriceCents)}</td>
              <td>{line.orderedQuantity}</td>
              <td>{line.quantity}</td>
            </tr>
          ))}
        </StaffTable>
      </section>

      <section aria-labelledby="photos-heading">
        <h2 id="photos-heading">Photos</h2>
        {detail.photoIds.length === 0 ? (
          <p className="staff-empty">No photos.</p>
        ) : (
          <ul className="returns-photos">
            {detail.photoIds.map((id, index) => (
              <li key={id}>
                <a href={`/returns/${detail.number}/photos/${id}`}>
                  <img
                    src={`/returns/${detail.number}/photos/${id}`}
                    alt={`Sent by the customer, ${index + 1} of ${detail.photoIds.length}`}
                    width={240}
                  />
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="actions-heading">
        <h2 id="actions-heading">Actions</h2>
        {canDecide ? (
          <Form method="post" action={formAction}>
            <CsrfField token={csrf} />
            <input type="hidden" name="seen" value={detail.status} />
            <input type="hidden" name="intent" value="approve" />
            <p>
              {detail.kind === "return"
                ? "Approving gives the customer a return authorization number and the return instructions by email."
                : "Approving acknowledges the claim and tells the customer it goes to the manufacturer's warranty."}
            </p>
            <button type="submit" className="button button--dark">
              Approve
            </button>
          </Form>
        ) : null}

        {refund && !mayRefund ? (
          <div data-testid="refund-by-owner">
            <h3>{detail.status === "approved" ? "Mark received and refund" : "Refund the received return"}</h3>
            <p>
              {DONE_BY_AN_OWNER.refunds} Marking a return received refunds it, so an owner does both (proposed:{" "}
              {formatUsd(refund.refundCents)}).
            </p>
            {refundUnderWay ? <p role="status">A refund is under way.</p> : null}
          </div>
        ) : null}

        {refund && mayRefund ? (
          <Form method="post" action={formAction} data-testid="receive-form">
            <CsrfField token={csrf} />
            <input type="hidden" name="seen" value={detail.status} />
            <input type="hidden" name="intent" value="receive" />
            <h3>{detail.status === "approved" ? "Mark received and refund" : "Refund the received return"}</h3>
            <table className="staff-table">
              <caption className="visually-hidden">How the refund is computed</caption>
              <tbody>
                <tr>
                  <th scope="row">Returned items</th>
                  <td>{formatUsd(refund.goodsCents)}</td>
                </tr>
                {refund.discountShareCents > 0 ? (
                  <tr>
                    <th scope="row">Their share of the order's discount</th>
                    <td>−{formatUsd(refund.discountShareCents)}</td>
                  </tr>
                ) : null}
                <tr>
                  <th scope="row">Shipping to the customer ({formatUsd(detail.order.shippingCents)} charged, not refunded)</th>
                  <td>−{formatUsd(0)}</td>
                </tr>
                <tr>
                  <th scope="row">Return shipping ({refund.returnShippingCents > 0 ? "our label" : "customer's own carrier"})</th>
                  <td>−{formatUsd(refund.returnShippingCents)}</td>
                </tr>
                <tr>
                  <th scope="row">Sales tax paid on the returned items</th>
                  <td data-testid="refund-tax">+{formatUsd(refund.taxCents)}</td>
                </tr>
                <tr>
                  <th scope="row">Refund{refund.cappedByPayment ? " (limited to what the payment still holds)" : ""}</th>
                  <td data-testid="proposed-refund">{formatUsd(refund.refundCents)}</td>
                </tr>
              </tbody>
            </table>
            <label htmlFor="refund-amount">Amount to refund, in dollars (at most {formatUsd(refund.refundCents)})</label>
            <input
              id="refund-amount"
              name="amount"
              inputMode="decimal"
              required
              maxLength={20}
              defaultValue={actionData?.fields?.amount || (refund.refundCents / 100).toFixed(2)}
              aria-describedby="refund-amount-hint"
            />
            <p id="refund-amount-hint" className="staff-muted">
              You may lower the amount (a damaged item, missing parts), never raise it. It is sent to {detail.order.paymentProvider} as a
              partial refund of the order's payment, once.
            </p>
            <p>
              <input id="refund-damaged" type="checkbox" name="damaged" />{" "}
              <label htmlFor="refund-damaged">Damaged: do not put the returned items back in stock</label>
            </p>
            {refundUnderWay ? <p role="status">A refund is under way.</p> : null}
            <button type="submit" className="button button--dark">
              {detail.status === "approved" ? "Mark received and refund" : "Refund"}
            </button>
          </Form>
        ) : null}

        {canDecline ? (
          <Form method="post" action={formAction}>
            <CsrfField token={csrf} />
            <input type="hidden" name="seen" value={detail.status} />
            <input type="hidden" name="intent" value="decline" />
            <h3>Decline</h3>
            <label htmlFor="decline-reason">Reason (the customer reads it)</label>
            <textarea
              id="decline-reason"
              name="reason"
              required
              maxLength={1000}
              rows={4}
              defaultValue={actionData?.fields?.reason ?? ""}
            />
            <button type="submit" className="button">
              Decline
            </button>
          </Form>
        ) : null}
        {!canDecide && !refund && !canDecline ? <p className="staff-empty">Nothing more to do: this request is {detail.status}.</p> : null}
      </section>

      <section aria-labelledby="events-heading">
        <h2 id="events-heading">History</h2>
        <ol className="audit-trail" data-testid="request-events">
          {detail.events.map((event, index) => (
            <li key={`${new Date(event.createdAt).toISOString()}-${index}`}>
              <span>
                <strong>{event.action}</strong> by {event.actor}
                {event.detail ? `: ${event.detail}` : ""}
              </span>
              <time dateTime={new Date(event.createdAt).toISOString()}>{formatDateTimeUtc(event.createdAt)}</time>
            </li>
          ))}
        </ol>
      </section>
    </StaffPage>
  );
}
