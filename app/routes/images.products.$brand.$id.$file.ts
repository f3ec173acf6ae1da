import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderSvg, renderProductSvg } from "~/catalog/illustration";
import { getProductByKey } from "~/catalog/queries.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * /images/products/{brand}/{Id}/{n}.svg: the product's illustration, drawn
 * from its catalog record. Deterministic, so it is cached for a year like a
 * static file; an unknown product or view gets the placeholder with a 404.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const view = /^(\d{1,3})\.svg$/.exec(params.file ?? "");
  const product = view ? await getProductByKey(context.store.db, `${params.brand}-${params.id}`) : null;
  if (!product || !view || Number(view[1]) < 1 || Number(view[1]) > product.images.length) {
    return svgResponse(placeholderSvg(), 404, 300);
  }
  const svg = renderProductSvg(
    {
      Id: product.id,
      brand: product.brand as Parameters<typeof renderProductSvg>[0]["brand"],
      Model: product.model,
      Title: product.title,
      Category: product.categories,
      image_count: product.images.length,
    },
    Number(view[1]),
  );
  return svgResponse(svg, 200, ONE_YEAR);
}

function svgResponse(svg: string, status: number, maxAge: number) {
  return new Response(svg, {
    status,
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": `public, max-age=${maxAge}${status === 200 ? ", immutable" : ""}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
