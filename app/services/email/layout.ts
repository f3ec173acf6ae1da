import { escapeHtml } from "./format";

/** Every email's HTML shell, one for the store: the body's paragraphs in the store's plain, readable type. */
export function emailDocument(body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">
${body}
</body>
</html>`;
}

/** How to reach the store, the line that closes every customer email: as text, and as HTML with the address a link. */
export function contactLine(store: { storePhone: string; storeEmail: string }): { text: string; html: string } {
  return {
    text: `Questions? Call us at ${store.storePhone} or write to ${store.storeEmail}.`,
    html: `<p>Questions? Call us at ${escapeHtml(store.storePhone)} or write to <a href="mailto:${escapeHtml(store.storeEmail)}">${escapeHtml(store.storeEmail)}</a>.</p>`,
  };
}
