import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/staff/guard.server";
import { stockCsv } from "~/stock/stock-desk.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/** Every product's stock as a CSV download (product_key,title,policy,on_hand,held,available), for staff only (others are sent to sign in). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const csv = await stockCsv(context.store.db);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="stock-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "Set-Cookie": await staff.commit(),
    },
  });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
