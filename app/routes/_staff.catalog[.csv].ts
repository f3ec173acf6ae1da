import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseCatalogDeskQuery } from "~/catalog/desk/catalog-desk";
import { catalogCsv } from "~/catalog/desk/catalog-import.server";
import { requireStaff } from "~/staff/guard.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

/**
 * /catalog.csv?brand=…&category=…: the prices and flags of one brand's, one category's or every product as a
 * CSV download (catalog-csv.ts), for staff only (others are sent to sign in). Edited in a spreadsheet, it is
 * the file /catalog/import reads. Prices are public, so a staff account may download them too.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const { brand, category } = parseCatalogDeskQuery(new URL(request.url).searchParams);
  const csv = await catalogCsv(context.store.db, { brand, category });
  const day = new Date().toISOString().slice(0, 10);
  const name =
    [brand, category]
      .filter(Boolean)
      .join("-")
      .replace(/[^A-Za-z0-9_-]+/g, "_") || "all";
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="catalogue-${name}-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "Set-Cookie": await staff.commit(),
    },
  });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
