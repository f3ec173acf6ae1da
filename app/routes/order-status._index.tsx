import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { OrderReceipt } from "~/components/OrderReceipt";
import { lookUpOrder } from "~/orders/lookup.server";
import type { PublicOrder } from "~/orders/public-order";
import { ORDER_LOOKUP_RATE_LIMITED_MESSAGE } from "~/security/messages";
import { retryAfterSeconds } from "~/security/rate-limit.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true };

export const ORDER_NOT_FOUND = "Order not found. Please check your Order ID.";
export const ORDER_ID_REQUIRED = "Please enter your Order ID.";

export const meta: MetaFunction = () => [
  { title: "Order Status" },
  { name: "description", content: "Check the status of your order with the Order ID from your confirmation email." },
];

type Lookup = { id: string; order: PublicOrder | null; error: string | null };

/**
 * /order-status?id=… and /order-status/{id}: a GET form, so a lookup is a
 * URL that can be shared or opened from the confirmation email.
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const id = (params.id ?? new URL(request.url).searchParams.get("id") ?? "").slice(0, 40);
  const submitted = params.id !== undefined || new URL(request.url).searchParams.has("id");
  if (!submitted) return data<Lookup>({ id: "", order: null, error: null });
  if (!id.trim()) return data<Lookup>({ id, order: null, error: ORDER_ID_REQUIRED }, { status: 400 });
  const lookup = await lookUpOrder(context.store, id, context.clientAddress);
  switch (lookup.status) {
    case "rate-limited":
      return data<Lookup>(
        { id, order: null, error: ORDER_LOOKUP_RATE_LIMITED_MESSAGE },
        { status: 429, headers: { "Retry-After": String(retryAfterSeconds(lookup.retryAfterMs)) } },
      );
    case "not-found":
      return data<Lookup>({ id, order: null, error: ORDER_NOT_FOUND }, { status: 404 });
    case "found":
      return data<Lookup>({ id, order: lookup.order, error: null });
  }
}

export default function OrderStatus() {
  const { id, order, error } = useLoaderData<typeof loader>();
  return (
    <div className="container order-status">
      <h1>Order Status</h1>
      <p>Enter the Order ID from your confirmation email.</p>
      <Form discover="none" method="get" action="/order-status" className="order-status__form">
        <div className="field">
          <label htmlFor="order-id">Order ID</label>
          <input
            id="order-id"
            name="id"
            defaultValue={id}
            key={id}
            autoComplete="off"
            autoCapitalize="characters"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "order-id-error" : undefined}
          />
          {error ? (
            <p id="order-id-error" className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button--primary">
          Check Status
        </button>
      </Form>
      {order ? <OrderReceipt order={order} /> : null}
      {order && order.status !== "Cancelled" ? (
        <p className="order-status__after-sale">
          <Link className="button" to={`/order-status/${encodeURIComponent(order.orderId)}/return`}>
            Request a return
          </Link>{" "}
          <Link className="button" to={`/order-status/${encodeURIComponent(order.orderId)}/claim`}>
            Report a defect
          </Link>
        </p>
      ) : null}
    </div>
  );
}
