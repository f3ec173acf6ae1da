import type { LoaderFunctionArgs } from "@remix-run/node";
import { drawingUrl, imagePath, parseDrawingFile, parsePhotoFile, photoUrl } from "~/catalog/image-url";
import { placeholderSvg, renderProductSvg } from "~/catalog/illustration.server";
import { findPhoto } from "~/catalog/photos.server";
import { anyProductByKey } from "~/catalog/queries.server";
import type { StoreProduct } from "~/catalog/store-product";
import { refuseNonGet } from "~/utils/allowed-methods.server";

const ONE_YEAR = 60 * 60 * 24 * 365;
/** A placeholder, a redirect to a newer address, or a drawing standing in for a broken photo: any may change soon. */
const FIVE_MINUTES = 300;

/**
 * /images/products/{brand}/{Id}/{n}.svg?v={DRAWING_VERSION}: the product's drawing of view n, drawn
 * from its catalog record. Deterministic, so it is cached for a year like a static file (a new drawing
 * gets a new `?v=`, image-url.ts); an unknown product or view gets the placeholder with a 404 (ADR 002).
 * /images/products/{brand}/{Id}/photo-{n}-{version}-{width}w.{avif|webp|jpg}: a photo from
 * PRODUCT_PHOTOS_DIR, resized and kept on disk (photos.server.ts, ADR 016); the view's drawing, briefly,
 * when the file is broken.
 *
 * Each answers only at the address image-url.ts builds: every other spelling (`photo-01-`, `0320w`,
 * another query) would be another entry in each cache on the way, the store's own included
 * (server/shared-cache.ts), so it is a 404. An older version of the address (an older photo version,
 * a drawing without `?v=`) redirects to the current one: a redirect is not a cached copy of the image.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const [brand, id, file] = [params.brand ?? "", params.id ?? "", params.file ?? ""];
  const photo = parsePhotoFile(file);
  if (photo) {
    if (!asksFor(request, photoUrl(brand, id, photo.n, photo.version, photo.width, photo.format))) return notFound();
    const answer = await findPhoto(context.store.config, { brand, id, photo });
    if (answer.kind === "photo") return photoResponse(answer.bytes, answer.contentType);
    if (answer.kind === "moved") return movedTo(answer.address);
    const product = answer.kind === "broken" ? await anyProductByKey(context.store.db, `${brand}-${id}`) : null;
    return product ? drawingResponse(product, photo.n, FIVE_MINUTES) : notFound();
  }
  const view = parseDrawingFile(file);
  if (view === null) return notFound();
  const current = asksFor(request, drawingUrl(brand, id, view));
  // The address before drawings were versioned: stored orders and old pages still name it.
  const unversioned = !current && asksFor(request, imagePath(brand, id, view));
  const product = current || unversioned ? await anyProductByKey(context.store.db, `${brand}-${id}`) : null;
  if (!product || view < 1 || view > product.images.length) return notFound();
  return current ? drawingResponse(product, view, ONE_YEAR) : movedTo(drawingUrl(brand, id, view));
}

/** Whether the request names exactly `address` (path and query, as the URL parser writes them). */
function asksFor(request: Request, address: string): boolean {
  return new URL(address, request.url).href === request.url;
}

/** The drawing of view n (renderProductSvg draws the last view for a larger n). */
function drawingResponse(product: StoreProduct, view: number, maxAge: number): Response {
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
    view,
  );
  return svgResponse(svg, 200, maxAge);
}

function notFound() {
  return svgResponse(placeholderSvg(), 404, FIVE_MINUTES);
}

function movedTo(address: string) {
  // Not `public`: the store's own cache keeps only a 200 (and the server would make a public redirect private).
  return new Response(null, { status: 302, headers: { Location: address, "Cache-Control": `max-age=${FIVE_MINUTES}` } });
}

function photoResponse(bytes: Buffer, contentType: string) {
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(bytes.length),
      "Cache-Control": `public, max-age=${ONE_YEAR}, immutable`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

function svgResponse(svg: string, status: number, maxAge: number) {
  return new Response(svg, {
    status,
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": `public, max-age=${maxAge}${maxAge === ONE_YEAR ? ", immutable" : ""}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
