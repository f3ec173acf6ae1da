import type { LoaderFunctionArgs } from "@remix-run/node";
import { authorizeNetHostedUrl } from "~/services/payments/authorize-net.server";
import { refuseNonGet } from "~/utils/allowed-methods.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true };

/**
 * The iframe communicator of Accept Hosted: Authorize.Net loads this page
 * inside its payment form (inside our popup) and hands it "action=..."
 * messages in the address hash or by postMessage; the page passes them to our
 * popup two frames up. It may be framed only by Authorize.Net's form and us.
 */
export function loader({ context }: LoaderFunctionArgs) {
  const hostedOrigin = new URL(authorizeNetHostedUrl(context.store.config)).origin;
  return new Response(communicatorPage(hostedOrigin), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": `default-src 'none'; script-src 'unsafe-inline'; frame-ancestors 'self' ${hostedOrigin}`,
    },
  });
}

function communicatorPage(hostedOrigin: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>IFrame Communicator</title>
<script>
  var HOSTED_ORIGIN = ${JSON.stringify(hostedOrigin)};
  function callParentFunction(str) {
    if (!str || !window.parent || !window.parent.parent) return;
    var popup = window.parent.parent.AuthorizeNetPopup;
    if (popup && popup.onReceiveCommunication) popup.onReceiveCommunication({ qstr: str, parent: document.referrer });
  }
  window.addEventListener("message", function (event) {
    if (event.origin === HOSTED_ORIGIN && typeof event.data === "string") callParentFunction(event.data);
  });
  if (window.location.hash && window.location.hash.length > 1) callParentFunction(window.location.hash.substring(1));
</script></head><body></body></html>`;
}

/** Only GET and HEAD: anything else gets a readable 405 with `Allow`. */
export const action = refuseNonGet;
