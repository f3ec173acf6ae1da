import { Form, Link } from "@remix-run/react";
import { formatDate } from "~/utils/format";
import { REASON_CHOICES, type AfterSaleActionData, type AfterSalePageData } from "./page-data";
import type { CustomerRequestView } from "./requests.server";

const TEXT = {
  return: {
    title: "Request a return",
    submit: "Request a return",
    notDelivered: "You can request a return once your order has been delivered.",
    sent: (number: string) => `Thank you. Your return request ${number} is in, and we have emailed you a copy. We will be in touch soon.`,
  },
  defect: {
    title: "Report a defect",
    submit: "Send the claim",
    notDelivered: "You can report a defect once your order has been delivered.",
    sent: (number: string) =>
      `Thank you. Your defect claim ${number} is in, and we have emailed you a copy. We will pass it to the manufacturer.`,
  },
} as const;

function statusText(request: CustomerRequestView): string {
  switch (request.status) {
    case "requested":
      return "Received: we are checking it.";
    case "approved":
      return request.kind === "return"
        ? `Approved${request.authorizationNumber ? `: return authorization ${request.authorizationNumber}` : ""}. We have emailed you the labels; please ship within 30 days.`
        : "Approved: the manufacturer will be in touch about the repair or replacement.";
    case "declined":
      return `Declined${request.declineReason ? `: ${request.declineReason}` : "."}`;
    case "received":
      return "We have received the items and are checking them.";
    case "refunded":
      return "Refunded to the card or account you paid with.";
  }
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

export function AfterSaleRequestPage({ page, result }: { page: AfterSalePageData; result: AfterSaleActionData | undefined }) {
  const text = TEXT[page.kind];
  const { order } = page;
  const errors = result?.errors ?? {};
  const values = result?.values;
  const other = page.kind === "return" ? "claim" : "return";
  return (
    <div className="container order-status after-sale">
      <h1>{text.title}</h1>
      <p>
        Order <strong>{order.orderId}</strong>, placed on {formatDate(order.createdAt)}.{" "}
        <Link to={`/order-status/${encodeURIComponent(order.orderId)}`}>Back to the order</Link>
      </p>
      {page.sent ? (
        <p className="notice notice--success" role="status" data-testid="request-sent">
          {text.sent(page.sent)}
        </p>
      ) : null}
      {errors[""] ? (
        <p className="notice notice--error" role="alert">
          {errors[""]}
        </p>
      ) : null}
      {result?.notice ? (
        <p className="notice notice--success" role="status" data-testid="proof-notice">
          {result.notice}
        </p>
      ) : null}

      {!page.proven ? (
        <section aria-labelledby="prove-heading">
          <h2 id="prove-heading">Confirm it is your order</h2>
          {page.linkError ? (
            <p className="notice notice--error" role="alert">
              {page.linkError}
            </p>
          ) : null}
          <p>Please enter the email address you used at checkout. The Order ID alone shows only the order&apos;s status.</p>
          <Form discover="none" method="post" className="order-status__form">
            <input type="hidden" name="intent" value="prove" />
            <div className="field">
              <label htmlFor="proof-email">Email address</label>
              <input
                id="proof-email"
                name="email"
                type="email"
                autoComplete="email"
                required
                maxLength={320}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? "proof-email-error" : undefined}
              />
              <FieldError id="proof-email-error" message={errors.email} />
            </div>
            <button type="submit" className="button button--primary">
              Continue
            </button>
          </Form>
          <Form discover="none" method="post" className="order-status__form">
            <input type="hidden" name="intent" value="send-link" />
            <p>Or we email a link that opens this page to the address you used at checkout:</p>
            <button type="submit" className="button">
              Email me a link
            </button>
          </Form>
        </section>
      ) : (
        <>
          {page.requests.length > 0 ? (
            <section aria-labelledby="requests-heading" data-testid="order-requests">
              <h2 id="requests-heading">Your requests for this order</h2>
              <ul>
                {page.requests.map((request) => (
                  <li key={request.number} data-testid="order-request">
                    <strong>{request.number}</strong> ({request.kind === "return" ? `return: ${request.reason}` : "defect claim"}, sent{" "}
                    {formatDate(request.createdAt)}):{" "}
                    {request.lines.map((line) => `${line.quantity} x ${order.items[line.lineIndex]?.title ?? "item"}`).join(", ")}.{" "}
                    <span data-testid="request-status">{statusText(request)}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {!page.deliveredAt ? (
            <p className="notice notice--info" role="status">
              {text.notDelivered}
            </p>
          ) : (
            <section aria-labelledby="request-heading">
              <h2 id="request-heading">{page.kind === "return" ? "What would you like to return?" : "What is wrong?"}</h2>
              <p>Delivered on {formatDate(page.deliveredAt)}.</p>
              {result?.refusals?.length ? (
                <div className="notice notice--error" role="alert" data-testid="request-refusals">
                  <p>We cannot accept this request:</p>
                  <ul>
                    {result.refusals.map((refusal) => (
                      <li key={refusal}>{refusal}</li>
                    ))}
                  </ul>
                </div>
              ) : null}
              <Form discover="none" method="post" encType="multipart/form-data" className="after-sale__form">
                <input type="hidden" name="intent" value="submit" />
                <input type="hidden" name="formKey" value={page.formKey ?? ""} />
                <fieldset aria-describedby={errors.lines ? "lines-error" : undefined}>
                  <legend>Items and quantities</legend>
                  {order.items.map((item, index) => (
                    <div className="field" key={`${index}-${item.productKey}`}>
                      <label htmlFor={`quantity-${index}`}>
                        {item.title} (Model {item.model}), ordered {item.quantity}
                      </label>
                      <select id={`quantity-${index}`} name={`quantity-${index}`} defaultValue="0">
                        <option value="0">None</option>
                        {Array.from({ length: item.quantity }, (_, n) => (
                          <option key={n + 1} value={String(n + 1)}>
                            {n + 1}
                          </option>
                        ))}
                      </select>
                    </div>
                  ))}
                  <FieldError id="lines-error" message={errors.lines} />
                </fieldset>
                {page.kind === "return" ? (
                  <fieldset aria-describedby={errors.reason ? "reason-error" : undefined}>
                    <legend>Reason</legend>
                    {REASON_CHOICES.map((reason, index) => (
                      <div key={reason} className="field field--choice">
                        <input
                          type="radio"
                          id={`reason-${index}`}
                          name="reason"
                          value={reason}
                          required
                          defaultChecked={values?.reason === reason}
                        />
                        <label htmlFor={`reason-${index}`}>{reason}</label>
                      </div>
                    ))}
                    <FieldError id="reason-error" message={errors.reason} />
                  </fieldset>
                ) : (
                  <>
                    <div className="field">
                      <label htmlFor="serial-number">Serial number</label>
                      <input
                        id="serial-number"
                        name="serialNumber"
                        required
                        maxLength={100}
                        autoComplete="off"
                        defaultValue={values?.serialNumber}
                        aria-invalid={errors.serialNumber ? true : undefined}
                        aria-describedby={errors.serialNumber ? "serial-number-error" : undefined}
                      />
                      <FieldError id="serial-number-error" message={errors.serialNumber} />
                    </div>
                    <div className="field">
                      <label htmlFor="video-url">Link to a video (optional)</label>
                      <input
                        id="video-url"
                        name="videoUrl"
                        type="url"
                        maxLength={500}
                        placeholder="https://"
                        defaultValue={values?.videoUrl}
                        aria-invalid={errors.videoUrl ? true : undefined}
                        aria-describedby={errors.videoUrl ? "video-url-error" : undefined}
                      />
                      <FieldError id="video-url-error" message={errors.videoUrl} />
                    </div>
                  </>
                )}
                <div className="field">
                  <label htmlFor="request-note">{page.kind === "return" ? "Note (optional)" : "Description of the problem"}</label>
                  <textarea
                    id="request-note"
                    name="note"
                    rows={4}
                    maxLength={2000}
                    required={page.kind === "defect"}
                    defaultValue={values?.note}
                    aria-invalid={errors.note ? true : undefined}
                    aria-describedby={errors.note ? "request-note-error" : undefined}
                  />
                  <FieldError id="request-note-error" message={errors.note} />
                </div>
                <div className="field">
                  <label htmlFor="request-photos">Photos (up to {page.maxPhotos}; JPEG, PNG or WebP; 5 MB each)</label>
                  <input
                    id="request-photos"
                    name="photo"
                    type="file"
                    multiple
                    accept="image/jpeg,image/png,image/webp"
                    aria-invalid={errors.photo ? true : undefined}
                    aria-describedby={errors.photo ? "request-photos-error request-photos-hint" : "request-photos-hint"}
                  />
                  <p id="request-photos-hint">
                    {page.kind === "return"
                      ? "Items shipped by freight, and damaged items, need a photo (of the item in its packaging, or of the damage)."
                      : "Please send photos or a link to a video that show the defect."}
                    {result ? " Photos are not kept when a form is refused: please choose them again." : ""}
                  </p>
                  <FieldError id="request-photos-error" message={errors.photo} />
                </div>
                <button type="submit" className="button button--primary">
                  {text.submit}
                </button>
              </Form>
            </section>
          )}
          <p>
            {page.kind === "return" ? "Has something stopped working? " : "Changed your mind, or did it arrive damaged? "}
            <Link to={`/order-status/${encodeURIComponent(order.orderId)}/${other}`}>
              {page.kind === "return" ? "Report a defect" : "Request a return"}
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
