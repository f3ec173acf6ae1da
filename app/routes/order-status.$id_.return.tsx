import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AfterSaleRequestPage } from "~/returns/AfterSaleRequestPage";
import { afterSalePageAction, afterSalePageLoader } from "~/server-api";
import type { RouteHandle } from "~/root";

/** /order-status/{id}/return: a return request, once the customer has proven the order is theirs (app/returns/). */
export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction = () => [{ title: "Request a return" }];

export const loader = (args: LoaderFunctionArgs) => afterSalePageLoader("return", args);
export const action = (args: ActionFunctionArgs) => afterSalePageAction("return", args);

export default function ReturnRequest() {
  return <AfterSaleRequestPage page={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
