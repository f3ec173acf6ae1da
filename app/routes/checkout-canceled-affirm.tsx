import { SiteLink } from "~/components/shared";
import { redirect, cancelPayment } from "~/server-api";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PAYMENT_CANCELLED_MESSAGE } from "~/payments/messages";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction = () => [{ title: "Financing cancelled" }];

/**
 * The financing provider's cancel URL: the server checks the attempt with Affirm (a loan confirmed after
 * all goes to its return page), marks it abandoned, and offers the way back to the checkout it came from.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const next = await cancelPayment(context.store, params.get("checkout_token") ?? "", params.get("attempt") ?? "");
  if (next.startsWith("/checkout-authorized/")) throw redirect(next, 303);
  return { backTo: next };
}

export default function FinancingCanceled() {
  const { backTo } = useLoaderData<typeof loader>();
  return (
    <div className="container order-complete">
      <h1>Financing cancelled</h1>
      <p className="notice notice--info" role="status">
        {PAYMENT_CANCELLED_MESSAGE}
      </p>
      <p>You left the financing application, so nothing was charged and no order was placed.</p>
      <SiteLink className="button button--primary" to={backTo}>
        Back to checkout
      </SiteLink>
    </div>
  );
}
