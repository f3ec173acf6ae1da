import { singleCheckoutAction, singleCheckoutLoader } from "~/server-api";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { clientAddressOf } from "~/http/load-context";
import { getDb } from "~/runtime.server";
import { SingleCheckoutView } from "~/components/checkout/SingleCheckoutView";

export const meta: MetaFunction = () => [{ title: "Checkout" }, { name: "robots", content: "noindex" }];

export const loader = async ({ request }: LoaderFunctionArgs) => singleCheckoutLoader(await getDb(), request, "single");
export const action = async ({ request, context }: ActionFunctionArgs) =>
  singleCheckoutAction(await getDb(), request, "single", clientAddressOf(context));

export default function SingleProductCheckout() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return <SingleCheckoutView title="Checkout" view={view} result={result} path="/single-product-checkout" />;
}
