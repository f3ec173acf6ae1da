import {
  data,
  redirect,
  applyCartChange,
  checkBuyNow,
  parseCartForm,
  cartCookieHeader,
  readCart,
  priceCart,
  readForm,
  stockLevels,
  cartShortageMessage,
  stockNoticeFor,
  unavailableLinesMessage,
  type PricedCartLine,
  type UnavailableCartLine,
} from "~/server-api";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CART_NOTICES, isCartNotice } from "~/cart/cart";
import {
  brandDisplayName,
  CartXIcon,
  TrashIcon,
  ProductImage,
  formatUsd,
  parseQuantity,
  useHydrated,
  productPath,
  qualifiesForFreeShipping,
  SINGLE_PRODUCT_MAX_QUANTITY,
  TAX_LINE,
  SiteLink,
} from "~/components/shared";
import { safeRedirectPath } from "~/utils/redirect";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction = () => [{ title: "My Cart" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const db = context.store.db;
  const cart = await priceCart(db, await readCart(context.store, request));
  const search = new URL(request.url).searchParams;
  const notice = search.get("notice");
  // A change refused for stock names the product (its key only travels in the address; the words are the server's).
  const refused = notice === "stock" ? (search.get("product") ?? "") : "";
  const levels = await stockLevels(db, [...cart.lines.map((line) => line.productKey), ...(refused ? [refused] : [])]);
  const inCart = cart.lines.reduce((sum, line) => (line.productKey === refused ? sum + line.quantity : sum), 0);
  const stockNotice = refused ? await stockNoticeFor(db, levels, refused, inCart) : null;
  return {
    cart,
    notice: stockNotice ?? (isCartNotice(notice) ? CART_NOTICES[notice] : null),
    // Lines the stock no longer covers (it changed since they were added), and lines of products no longer sold.
    stockMessage: [unavailableLinesMessage(cart.unavailable), cartShortageMessage(cart.lines, levels)].filter(Boolean).join(" ") || null,
  };
}

/**
 * Every cart change posts here. A document post (no script) is redirected
 * back; a fetcher post (script) gets the outcome as data and stays put.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const change = parseCartForm(form);
  if (change?.intent === "buy") {
    // More than is in stock: with script the product page says so and stays; without, the checkout page says it.
    const stock = await checkBuyNow(context.store.db, { productKey: change.productKey, quantity: Number(change.quantity) });
    if (!stock.ok && form.mode === "fetch") return data({ ok: false as const, message: stock.message }, { status: 409 });
    return redirect(buyNowPath(change));
  }
  const result = await applyCartChange(context.store.db, await readCart(context.store, request), change);
  const headers = { "Set-Cookie": await cartCookieHeader(context.store, request, result.cart) };
  if (form.mode === "fetch") {
    return data(
      result.ok
        ? { ok: true as const, added: result.added ?? null }
        : { ok: false as const, message: result.message ?? CART_NOTICES[result.notice] },
      {
        headers,
        status: result.ok ? 200 : result.notice === "stock" ? 409 : 400,
      },
    );
  }
  const back = safeRedirectPath(form.redirectTo, "/cart");
  if (!result.ok) {
    const product = result.productKey ? `&product=${encodeURIComponent(result.productKey)}` : "";
    return redirect(`/cart?notice=${result.notice}${product}`, { headers });
  }
  return redirect(back, { headers, status: 303 });
}

/** BUY NOW skips the cart: the single-product checkout gets the product and quantity in its URL. */
function buyNowPath(buy: { productKey: string; quantity: string }): string {
  const params = new URLSearchParams({
    product: buy.productKey,
    quantity: String(parseQuantity(buy.quantity, SINGLE_PRODUCT_MAX_QUANTITY)),
  });
  return `/single-product-checkout?${params}`;
}

export default function CartPage() {
  const { cart, notice, stockMessage } = useLoaderData<typeof loader>();
  return (
    <div className="container cart-page">
      <h1>My Cart</h1>
      {notice ? (
        <p className="notice notice--error" role="alert">
          {notice}
        </p>
      ) : null}
      {stockMessage && stockMessage !== notice ? (
        <p className="notice notice--error" role="alert">
          {stockMessage}
        </p>
      ) : null}
      {cart.lines.length + cart.unavailable.length === 0 ? (
        <EmptyCart />
      ) : (
        <div className="cart-page__layout">
          <ul className="cart-lines" aria-label="Products in your cart">
            {[
              ...cart.lines.map((line) => ({ line, item: <CartLineItem key={`${line.position}-${line.productKey}`} line={line} /> })),
              ...cart.unavailable.map((line) => ({
                line,
                item: <UnavailableLineItem key={`${line.position}-${line.productKey}`} line={line} />,
              })),
            ]
              .sort((a, b) => a.line.position - b.line.position)
              .map(({ item }) => item)}
          </ul>
          <aside className="cart-total" aria-labelledby="cart-total-heading">
            <h2 id="cart-total-heading">Your Total</h2>
            <dl>
              <div>
                <dt>Subtotal</dt>
                <dd data-testid="cart-subtotal">{formatUsd(cart.subtotalCents)}</dd>
              </div>
              <div>
                <dt>Shipping</dt>
                <dd data-testid="cart-shipping">{cart.shippingCents === 0 ? "Free" : formatUsd(cart.shippingCents)}</dd>
              </div>
              <div>
                <dt>{TAX_LINE.label}</dt>
                <dd>{TAX_LINE.value}</dd>
              </div>
              <div className="cart-total__sum">
                <dt>Total</dt>
                <dd data-testid="cart-total">{formatUsd(cart.totalCents)}</dd>
              </div>
            </dl>
            <SiteLink to="/checkout" className="button button--primary button--block">
              Proceed to Checkout
            </SiteLink>
          </aside>
        </div>
      )}
    </div>
  );
}

function EmptyCart() {
  return (
    <div className="empty-state">
      <CartXIcon />
      <p className="empty-state__title">Opps, your cart seems to be empty.</p>
      <p>Please add some products.</p>
      <SiteLink to="/products/all/all" className="button button--primary">
        View Products
      </SiteLink>
    </div>
  );
}

/** A product the store no longer sells: no link, price or quantity, only why and the way to remove it. */
function UnavailableLineItem({ line }: { line: UnavailableCartLine }) {
  return (
    <li className="cart-line cart-line--unavailable">
      <span className="cart-line__image">
        <ProductImage src={line.image} alt={line.title} width={120} height={120} />
      </span>
      <div className="cart-line__details">
        <p className="cart-line__meta">
          <span>ID: {line.id}</span> <span>MODEL: {line.model || "—"}</span>
        </p>
        <p className="cart-line__brand">{brandDisplayName(line.brand)}</p>
        <p className="cart-line__title">{line.title}</p>
        <p className="field-error">No longer available</p>
      </div>
      <RemoveLine line={line} />
    </li>
  );
}

function RemoveLine({ line }: { line: Pick<PricedCartLine, "position" | "title"> }) {
  return (
    <Form discover="none" method="post" action="/cart" className="cart-line__remove">
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="position" value={line.position} />
      <input type="hidden" name="redirectTo" value="/cart" />
      <button type="submit" className="icon-button" aria-label={`Remove ${line.title}`}>
        <TrashIcon />
      </button>
    </Form>
  );
}

function CartLineItem({ line }: { line: PricedCartLine }) {
  const fetcher = useFetcher<typeof action>();
  const hydrated = useHydrated();
  const mode = hydrated ? "fetch" : "document";
  const quantityInput = useRef<HTMLInputElement>(null);
  // A quantity refused (more than is in stock) changed nothing: the field shows the cart's quantity again, and why.
  const refusal = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.message : null;
  useEffect(() => {
    if (refusal && quantityInput.current) quantityInput.current.value = String(line.quantity);
  }, [refusal, fetcher.data, line.quantity]);
  return (
    <li className="cart-line">
      <SiteLink to={productPath({ key: line.productKey, id: line.id })} className="cart-line__image">
        <ProductImage src={line.image} alt={line.title} width={120} height={120} />
      </SiteLink>
      <div className="cart-line__details">
        <p className="cart-line__meta">
          <span>ID: {line.id}</span> <span>MODEL: {line.model || "—"}</span>
        </p>
        <p className="cart-line__brand">{brandDisplayName(line.brand)}</p>
        <SiteLink to={productPath({ key: line.productKey, id: line.id })} className="cart-line__title">
          {line.title}
        </SiteLink>
        {qualifiesForFreeShipping(line.unitPriceCents) ? <p className="label-free-shipping">Free Shipping</p> : null}
      </div>
      <fetcher.Form method="post" action="/cart" className="cart-line__quantity">
        <input type="hidden" name="intent" value="quantity" />
        <input type="hidden" name="position" value={line.position} />
        <input type="hidden" name="mode" value={mode} />
        <label htmlFor={`quantity-${line.position}`}>Quantity</label>
        <input
          id={`quantity-${line.position}`}
          name="quantity"
          type="number"
          min={1}
          inputMode="numeric"
          defaultValue={line.quantity}
          key={line.quantity}
          ref={quantityInput}
          aria-describedby={refusal ? `quantity-${line.position}-refusal` : undefined}
          onChange={(event) => hydrated && event.currentTarget.value !== "" && fetcher.submit(event.currentTarget.form)}
        />
        <button type="submit" className={hydrated ? "visually-hidden" : "button button--small cart-line__update-without-script"}>
          Update
        </button>
        <p id={`quantity-${line.position}-refusal`} className="field-error cart-line__refusal" role="status">
          {refusal ?? ""}
        </p>
      </fetcher.Form>
      <p className="cart-line__price">{formatUsd(line.unitPriceCents)}</p>
      <RemoveLine line={line} />
    </li>
  );
}
