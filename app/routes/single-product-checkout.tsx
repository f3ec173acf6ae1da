import { singleCheckoutAction, singleCheckoutLoader } from "~/server-api";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SingleCheckoutView } from "~/components/checkout/SingleCheckoutView";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction = () => [{ title: "Checkout" }];

export const loader = async ({ request, context }: LoaderFunctionArgs) => singleCheckoutLoader(context.store, request, "single");
export const action = async ({ request, context }: ActionFunctionArgs) =>
  singleCheckoutAction(context.store, request, "single", context.clientAddress);

export default function SingleProductCheckout() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return <SingleCheckoutView title="Checkout" view={view} result={result} path="/single-product-checkout" />;
}
