import { PrefetchPageLinks, useFetcher, useLocation } from "@remix-run/react";
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useId,
  useMemo,
  useState,
  type FocusEvent,
  type FormEvent,
  type MouseEvent,
  type ReactNode,
} from "react";
import type { action as cartAction } from "~/routes/cart";
import type { action as compareAction } from "~/routes/compare";
import { CARD_LINK_CLASS } from "~/components/shared";

// What a Compare press did shows only after one: its script loads then, not with the list.
const CompareOutcome = lazy(() => import("./guides/CompareButton").then((module) => ({ default: module.CompareOutcome })));

/**
 * One set of hooks for a whole list of product cards instead of a set per card.
 *
 * A list page shows 100 cards; with a fetcher form per button and a Remix <Link> per title,
 * hydrating it ran about 300 components' worth of router hooks on a slow phone's main thread.
 * Here each card is plain markup: two buttons and a plain <a>. The buttons belong (by their `form`
 * attribute) to one form for the whole list, which holds what every card would repeat (intent,
 * the page to come back to, the mode); the button pressed adds its product key and chooses where
 * the form posts (ADD TO CART to /cart, Compare to /compare by its formaction). The list's scope
 * handles that form's submits and the clicks bubbling up from the cards: it posts in the
 * background through one fetcher per action, and prefetches the card the pointer or focus rests
 * on; the page's link handler (`useSiteLinkNavigation`) opens the cards client-side. Before script loads, the same markup posts and navigates as an
 * ordinary page would.
 */

type CardActionKind = "cart" | "compare";

interface CardActionState {
  productKey: string | null;
  busy: boolean;
  status: ReactNode;
}

interface CardActionsValue {
  /** The id of the list's one form, which every card's buttons name. */
  formId: string;
  cart: CardActionState;
  compare: CardActionState;
}

const IDLE: CardActionState = { productKey: null, busy: false, status: null };
const CardActionsContext = createContext<CardActionsValue>({ formId: "", cart: IDLE, compare: IDLE });

const CARD_FORM_CLASS = "card-actions";

function useCardActionsScope() {
  const formId = useId();
  const cartFetcher = useFetcher<typeof cartAction>();
  const compareFetcher = useFetcher<typeof compareAction>();
  const location = useLocation();
  const [target, setTarget] = useState<Record<CardActionKind, string | null>>({ cart: null, compare: null });
  const [prefetchHref, setPrefetchHref] = useState<string | null>(null);

  const onSubmit = useCallback(
    (event: FormEvent<HTMLElement>) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.classList.contains(CARD_FORM_CLASS)) return;
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      const data = new FormData(form, submitter);
      data.set("mode", "fetch");
      const action = submitter?.getAttribute("formaction") ?? form.getAttribute("action") ?? "/cart";
      const kind: CardActionKind = action === "/compare" ? "compare" : "cart";
      (kind === "compare" ? compareFetcher : cartFetcher).submit(data, { method: "post", action });
      setTarget((current) => ({ ...current, [kind]: String(data.get("productKey")) }));
    },
    [cartFetcher, compareFetcher],
  );

  const onIntent = useCallback((event: MouseEvent<HTMLElement> | FocusEvent<HTMLElement>) => {
    const href = cardLinkHref(event.target);
    if (href) setPrefetchHref(href);
  }, []);

  const cartState = cartFetcher.state === "idle" ? cartFetcher.data : undefined;
  const compareState = compareFetcher.state === "idle" ? compareFetcher.data : undefined;
  const value = useMemo<CardActionsValue>(
    () => ({
      formId,
      cart: {
        productKey: target.cart,
        busy: cartFetcher.state !== "idle",
        status: cartState ? (cartState.ok ? "Added to cart" : cartState.message) : null,
      },
      compare: {
        productKey: target.compare,
        busy: compareFetcher.state !== "idle",
        status: compareState ? (
          <Suspense fallback={null}>
            <CompareOutcome result={compareState} />
          </Suspense>
        ) : null,
      },
    }),
    [formId, target, cartFetcher.state, cartState, compareFetcher.state, compareState],
  );

  return {
    handlers: { onMouseOver: onIntent, onFocus: onIntent },
    onSubmit,
    returnTo: `${location.pathname}${location.search}`,
    value,
    /** The one prefetch the list asks for at a time: the card the shopper is about to open. */
    prefetch: prefetchHref ? <PrefetchPageLinks page={prefetchHref} /> : null,
  };
}

type CardListHandlers = ReturnType<typeof useCardActionsScope>["handlers"];

function cardLinkHref(target: EventTarget): string | null {
  if (!(target instanceof Element)) return null;
  const link = target.closest(`a.${CARD_LINK_CLASS}`);
  return link?.getAttribute("href") ?? null;
}

/**
 * A list of cards with one set of action hooks and one form: `renderList` spreads the handlers on
 * the element holding the cards. `mode=document` in the markup; the submit handler sends
 * `mode=fetch` once script runs.
 */
export function CardActionsScope({ renderList }: { renderList: (handlers: CardListHandlers) => ReactNode }) {
  const scope = useCardActionsScope();
  return (
    <CardActionsContext.Provider value={scope.value}>
      <form id={scope.value.formId} method="post" action="/cart" className={CARD_FORM_CLASS} hidden onSubmit={scope.onSubmit}>
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="redirectTo" value={scope.returnTo} />
        <input type="hidden" name="mode" value="document" />
      </form>
      {renderList(scope.handlers)}
      {scope.prefetch}
    </CardActionsContext.Provider>
  );
}

/** The id of the form the cards of this list name (the cards' markup depends on it: markup-cache keys say it). */
export function useCardFormId(): string {
  return useContext(CardActionsContext).formId;
}

/** A card drawn on its own, as the server draws every card of a list: the list's form id, nothing pressed yet. */
export function CardsOfForm({ formId, children }: { formId: string; children: ReactNode }) {
  return <CardActionsContext.Provider value={{ formId, cart: IDLE, compare: IDLE }}>{children}</CardActionsContext.Provider>;
}

/**
 * A card's ADD TO CART and Compare: buttons of the list's form, each adding its product key; the one pressed
 * chooses where it posts. A product out of stock has no ADD TO CART (its page offers "Notify me").
 */
export function CardActions({ productKey, soldOut = false }: { productKey: string; soldOut?: boolean }) {
  const { formId, cart, compare } = useContext(CardActionsContext);
  const cartBusy = cart.busy && cart.productKey === productKey;
  const compareBusy = compare.busy && compare.productKey === productKey;
  const status = latestStatus(productKey, cart, compare);
  return (
    <div className="card-actions__buttons">
      {soldOut ? null : (
        <button form={formId} name="productKey" value={productKey} className="button button--primary" disabled={cartBusy}>
          {cartBusy ? "Adding…" : "ADD TO CART"}
        </button>
      )}
      <button
        form={formId}
        name="productKey"
        value={productKey}
        formAction="/compare"
        className="button button--small compare-button"
        disabled={compareBusy}
      >
        Compare
      </button>
      <span className="card-actions__status" role="status">
        {status}
      </span>
    </div>
  );
}

function latestStatus(productKey: string, cart: CardActionState, compare: CardActionState): ReactNode {
  const parts: ReactNode[] = [];
  if (cart.productKey === productKey && !cart.busy && cart.status) parts.push(<span key="cart">{cart.status} </span>);
  if (compare.productKey === productKey && !compare.busy && compare.status) parts.push(<span key="compare">{compare.status}</span>);
  return parts.length ? parts : null;
}
