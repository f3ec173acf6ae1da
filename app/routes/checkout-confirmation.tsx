import { SiteLink } from "~/components/shared";
import { readLastOrderId, findOrderByDisplayId, confirmationEmailState, orderTaxNoteOf } from "~/server-api";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OrderReceipt } from "~/components/OrderReceipt";
import { toPublicOrder } from "~/orders/public-order";
import { ConfirmationEmailPending } from "~/components/ConfirmationEmailNotice";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction = () => [{ title: "Order confirmation" }];

/** A receipt of the last order placed in this browser. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const orderId = await readLastOrderId(context.store, request);
  const db = context.store.db;
  const order = orderId ? await findOrderByDisplayId(db, orderId) : null;
  return {
    order: order ? toPublicOrder(order, { taxNote: orderTaxNoteOf(order), afterSale: [], refunds: [] }) : null,
    emailState: order ? await confirmationEmailState(db, order.orderId) : null,
  };
}

export default function CheckoutConfirmation() {
  const { order, emailState } = useLoaderData<typeof loader>();
  return (
    <div className="container order-status">
      <h1>Order confirmation</h1>
      {order ? (
        <>
          {emailState && emailState !== "sent" ? <ConfirmationEmailPending state={emailState} orderId={order.orderId} /> : null}
          <OrderReceipt order={order} />
        </>
      ) : (
        <div className="empty-state">
          <p className="empty-state__title">No recent order in this browser.</p>
          <p>
            Look an order up with its Order ID on the <SiteLink to="/order-status">order status page</SiteLink>.
          </p>
        </div>
      )}
    </div>
  );
}
