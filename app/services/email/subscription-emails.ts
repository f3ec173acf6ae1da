import { escapeHtml, safeHttpUrl, singleLine } from "./format";
import { emailDocument } from "./layout";
import type { RenderedEmail } from "./templates";

/** The emails of subscriptions a shopper asks for: the newsletter's confirmation, and "Notify me" for a product back in stock. */

export interface NewsletterConfirmationInput {
  storeName: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}

/** The double opt-in email: a signed confirmation link, and (like every newsletter mail) an unsubscribe link. */
export function newsletterConfirmationEmail(input: NewsletterConfirmationInput): RenderedEmail {
  const confirmUrl = safeHttpUrl(input.confirmUrl);
  const unsubscribeUrl = safeHttpUrl(input.unsubscribeUrl);
  const storeName = singleLine(input.storeName);
  const text = [
    "Hi,",
    "",
    `Someone, hopefully you, asked to join the ${storeName} mailing list with this address.`,
    "",
    `Confirm your subscription: ${confirmUrl}`,
    "",
    "The link works for 7 days. If you did not ask for this, ignore this email: you will get no newsletter.",
    "",
    `Never email this address again: ${unsubscribeUrl}`,
    "",
    storeName,
  ].join("\n");
  const html = emailDocument(`<p>Hi,</p>
<p>Someone, hopefully you, asked to join the ${escapeHtml(storeName)} mailing list with this address.</p>
<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;padding:10px 18px;background:#b4441c;color:#fff;text-decoration:none;border-radius:4px">Confirm your subscription</a></p>
<p>The link works for 7 days. If you did not ask for this, ignore this email: you will get no newsletter.</p>
<p style="font-size:12px;color:#666"><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a>: never email this address again.</p>
<p>${escapeHtml(storeName)}</p>`);
  return { subject: `Confirm your subscription to ${storeName}`, text, html, tag: "newsletter-confirmation" };
}

export interface StockAlertEmailInput {
  storeName: string;
  productTitle: string;
  /** The product's page, absolute. */
  productUrl: string;
  /** The alert's signed unsubscribe link (never expires). */
  unsubscribeUrl: string;
}

/** The small print every "Notify me" email ends with: the unsubscribe link and the store. */
function stockAlertFooter(storeName: string, unsubscribeUrl: string): { text: string[]; html: string } {
  return {
    text: [`Stop emails about this product: ${unsubscribeUrl}`, "", storeName],
    html: `<p style="font-size:12px;color:#666"><a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a>: no email about this product.</p>
<p>${escapeHtml(storeName)}</p>`,
  };
}

/** What both "Notify me" emails show, made safe once: the product's link and title, the store, the unsubscribe footer. */
function stockAlertParts(input: StockAlertEmailInput) {
  const storeName = singleLine(input.storeName);
  return {
    productUrl: safeHttpUrl(input.productUrl),
    storeName,
    title: singleLine(input.productTitle, 200),
    footer: stockAlertFooter(storeName, safeHttpUrl(input.unsubscribeUrl)),
  };
}

/** "Notify me when available", double opt-in: the signed confirmation link for one product. Nothing of the customer but the product. */
export function stockAlertConfirmationEmail(input: StockAlertEmailInput & { confirmUrl: string }): RenderedEmail {
  const confirmUrl = safeHttpUrl(input.confirmUrl);
  const { productUrl, storeName, title, footer } = stockAlertParts(input);
  const text = [
    "Hi,",
    "",
    `Someone, hopefully you, asked ${storeName} to email this address once when this product is back in stock:`,
    `${title}: ${productUrl}`,
    "",
    `Confirm and we will email you once: ${confirmUrl}`,
    "",
    "The link works for 7 days. If you did not ask for this, ignore this email: you will get no other.",
    "",
    ...footer.text,
  ].join("\n");
  const html = emailDocument(`<p>Hi,</p>
<p>Someone, hopefully you, asked ${escapeHtml(storeName)} to email this address once when this product is back in stock:
<a href="${escapeHtml(productUrl)}">${escapeHtml(title)}</a></p>
<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;padding:10px 18px;background:#b4441c;color:#fff;text-decoration:none;border-radius:4px">Confirm: email me when it is back</a></p>
<p>The link works for 7 days. If you did not ask for this, ignore this email: you will get no other.</p>
${footer.html}`);
  return { subject: singleLine(`Confirm: email me when ${title} is back in stock`, 200), text, html, tag: "stock-alert-confirmation" };
}

/** The one email a confirmed "Notify me" subscriber gets: the product is back, with its link. */
export function backInStockEmail(input: StockAlertEmailInput): RenderedEmail {
  const { productUrl, title, footer } = stockAlertParts(input);
  const text = [
    "Hi,",
    "",
    `Good news: ${title} is back in stock.`,
    "",
    `Order it here: ${productUrl}`,
    "",
    "You asked us to tell you once, so this is the only email about it. Stock is limited: first come, first served.",
    "",
    ...footer.text,
  ].join("\n");
  const html = emailDocument(`<p>Hi,</p>
<p>Good news: <strong>${escapeHtml(title)}</strong> is back in stock.</p>
<p><a href="${escapeHtml(productUrl)}" style="display:inline-block;padding:10px 18px;background:#b4441c;color:#fff;text-decoration:none;border-radius:4px">See the product</a></p>
<p>You asked us to tell you once, so this is the only email about it. Stock is limited: first come, first served.</p>
${footer.html}`);
  return { subject: singleLine(`Back in stock: ${title}`, 200), text, html, tag: "back-in-stock" };
}
