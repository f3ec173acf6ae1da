import type { LoaderFunctionArgs } from "@remix-run/node";
import { placeholderSvg, renderProductSvg } from "~/catalog/illustration.server";
import { photoResponse } from "~/catalog/photos.server";
import { getProductByKey } from "~/catalog/queries.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * /images/products/{brand}/{Id}/{n}.svg: the product's drawing of view n, drawn from its catalog
 * record. Deterministic, so it is cached for a year like a static file (a new drawing gets a new
 * `?v=`, image-url.ts); an unknown product or view gets the placeholder with a 404 (ADR 002).
 * /images/products/{brand}/{Id}/photo-{n}-{version}-{width}w.{avif|webp|jpg}: a photo from
 * PRODUCT_PHOTOS_DIR, resized and kept on disk (photos.server.ts, ADR 016).
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const [brand, id, file] = [params.brand ?? "", params.id ?? "", params.file ?? ""];
  const notFound = () => svgResponse(placeholderSvg(), 404, 300);
  const photo = await photoResponse(context.store.config, { brand, id, file }, notFound);
  if (photo) return photo;
  const view = /^(\d{1,3})\.svg$/.exec(file);
  const product = view ? await getProductByKey(context.store.db, `${brand}-${id}`) : null;
  if (!product || !view || Number(view[1]) < 1 || Number(view[1]) > product.images.length) return notFound();
  const svg = renderProductSvg(
    {
      Id: product.id,
      brand: product.brand as Parameters<typeof renderProductSvg>[0]["brand"],
      Model: product.model,
      Title: product.title,
      Category: product.categories,
      Specifications: product.specifications,
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
