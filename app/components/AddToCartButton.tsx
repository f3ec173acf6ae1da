import { useFetcher, useLocation } from "@remix-run/react";
import type { action as cartAction } from "~/routes/cart";
import { useHydrated } from "~/components/shared";

/**
 * ADD TO CART as a real form: without script it posts and comes back to the
 * same page; with script it posts in the background and stays put.
 */
export function AddToCartButton({
  productKey,
  quantity = 1,
  label = "ADD TO CART",
  className = "button button--primary",
}: {
  productKey: string;
  quantity?: number;
  label?: string;
  className?: string;
}) {
  const fetcher = useFetcher<typeof cartAction>();
  const location = useLocation();
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  return (
    <fetcher.Form method="post" action="/cart" className="add-to-cart">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productKey" value={productKey} />
      <input type="hidden" name="quantity" value={quantity} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name="mode" value={hydrated ? "fetch" : "document"} />
      <button type="submit" className={className} disabled={busy}>
        {busy ? "Adding…" : label}
      </button>
      <span className="add-to-cart__status" role="status">
        {result && !busy ? (result.ok ? "Added to cart" : result.message) : ""}
      </span>
    </fetcher.Form>
  );
}
