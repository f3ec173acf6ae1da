import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getCheckout } from "~/checkout/checkout.server";
import { checkoutPagePath } from "~/checkout/paths";
import { getDb } from "~/runtime.server";

export const meta: MetaFunction = () => [{ title: "Financing cancelled" }, { name: "robots", content: "noindex" }];

/** The financing provider's cancel URL: nothing was charged; back to the checkout it came from. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("checkout_token") ?? "";
  const checkout = token ? await getCheckout(await getDb(), token) : null;
  return { backTo: checkout ? checkoutPagePath(checkout.kind, checkout.token) : "/cart" };
}

export default function FinancingCanceled() {
  const { backTo } = useLoaderData<typeof loader>();
  return (
    <div className="container order-complete">
      <h1>Financing cancelled</h1>
      <p>You left the financing application, so nothing was charged and no order was placed. Your cart is unchanged.</p>
      <Link className="button button--primary" to={backTo}>
        Back to checkout
      </Link>
    </div>
  );
}
