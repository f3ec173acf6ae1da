import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { OrderReceipt } from "~/components/OrderReceipt";
import { readLastOrderId } from "~/orders/last-order-cookie.server";
import { findOrderByDisplayId } from "~/orders/orders.server";
import { toPublicOrder } from "~/orders/public-order";
import { getDb } from "~/runtime.server";

export const meta: MetaFunction = () => [{ title: "Order confirmation" }, { name: "robots", content: "noindex" }];

/** A receipt of the last order placed in this browser. */
export async function loader({ request }: LoaderFunctionArgs) {
  const orderId = await readLastOrderId(request);
  const order = orderId ? await findOrderByDisplayId(await getDb(), orderId) : null;
  return { order: order ? toPublicOrder(order) : null };
}

export default function CheckoutConfirmation() {
  const { order } = useLoaderData<typeof loader>();
  return (
    <div className="container order-status">
      <h1>Order confirmation</h1>
      {order ? (
        <OrderReceipt order={order} />
      ) : (
        <div className="empty-state">
          <p className="empty-state__title">No recent order in this browser.</p>
          <p>
            Look an order up with its Order ID on the <Link to="/order-status">order status page</Link>.
          </p>
        </div>
      )}
    </div>
  );
}
