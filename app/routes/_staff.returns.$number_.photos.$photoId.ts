import { refuseNonGet } from "~/utils/allowed-methods.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/staff/guard.server";
import { deskPhoto } from "~/staff/returns-desk.server";

/** A customer's photo of a return or defect claim: staff only, never cached, shown as the image it was stored as. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const photo = await deskPhoto(context.store.db, params.number ?? "", params.photoId ?? "");
  const headers = {
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Set-Cookie": await staff.commit(),
  };
  if (!photo)
    return new Response("Photo not found.", { status: 404, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
  // Photos are stored re-encoded as images; anything else is served as bytes, never as a page.
  const contentType = /^image\/(jpeg|png|webp)$/.test(photo.contentType) ? photo.contentType : "application/octet-stream";
  return new Response(new Uint8Array(photo.data), {
    status: 200,
    headers: { ...headers, "Content-Type": contentType, "Content-Disposition": "inline", "Content-Length": String(photo.data.length) },
  });
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
