import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AfterSaleRequestPage } from "~/returns/AfterSaleRequestPage";
import { afterSalePageAction, afterSalePageLoader } from "~/server-api";
import type { RouteHandle } from "~/root";

/** /order-status/{id}/claim: a defect claim, once the customer has proven the order is theirs (app/returns/). */
export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction = () => [{ title: "Report a defect" }];

export const loader = (args: LoaderFunctionArgs) => afterSalePageLoader("defect", args);
export const action = (args: ActionFunctionArgs) => afterSalePageAction("defect", args);

export default function DefectClaim() {
  return <AfterSaleRequestPage page={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
