import type { LoaderFunctionArgs } from "@remix-run/node";
import { brandPath, categoryPath } from "~/components/layout/navigation";
import { DISPLAYED_BRANDS } from "~/catalog/brands";
import { allProductKeys, brandCategories } from "~/catalog/queries.server";
import { productPath } from "~/catalog/store-product";
import { publicBaseUrl } from "~/config.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

const STATIC_PATHS = [
  "/",
  "/products/all/all",
  "/custom-product",
  "/love-rub",
  "/contact",
  "/order-status",
  "/privacy-policy",
  "/shipping-policy",
  "/return-policy",
  "/defective-product",
  "/fit",
  "/heater-helper",
  "/grill-helper",
];

/** Every product page and every list page (brands, categories) for search engines. */
export async function loader({ context }: LoaderFunctionArgs) {
  const origin = publicBaseUrl(context.store.config);
  const db = context.store.db;
  const [rows, categories] = await Promise.all([allProductKeys(db), brandCategories(db, "all")]);
  const paths = [
    ...STATIC_PATHS,
    ...DISPLAYED_BRANDS.map((brand) => brandPath(brand)),
    ...categories.filter((c) => c.value !== "all").map((c) => categoryPath(c.value)),
    ...rows.filter((row) => productPath(row) !== "/custom-product").map((row) => productPath(row)),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...paths.map((path) => `<url><loc>${escapeXml(origin + path)}</loc></url>`),
    "</urlset>",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
