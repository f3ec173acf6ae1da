import { useFetcher, useLocation } from "@remix-run/react";
import type { action as compareAction } from "~/routes/compare";
import { useHydrated, SiteLink } from "~/components/shared";

/**
 * "Compare" as a plain form post to /compare. Without script the shopper
 * lands on the comparison (or on "which one should it replace?"); with script
 * it posts in the background and says what happened, with a link.
 * Keep it outside a card's product link: a form never nests in an <a>.
 */
export function CompareButton({
  productKey,
  className = "button button--small compare-button",
}: {
  productKey: string;
  className?: string;
}) {
  const fetcher = useFetcher<typeof compareAction>();
  const location = useLocation();
  const hydrated = useHydrated();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  return (
    <fetcher.Form method="post" action="/compare" className="compare-form">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productKey" value={productKey} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name="mode" value={hydrated ? "fetch" : "document"} />
      <button type="submit" className={className} disabled={fetcher.state !== "idle"}>
        Compare
      </button>
      <span className="compare-form__status" role="status">
        {result ? <CompareOutcome result={result} /> : null}
      </span>
    </fetcher.Form>
  );
}

type CompareResult = NonNullable<ReturnType<typeof useFetcher<typeof compareAction>>["data"]>;

/** What a Compare press did, with the link to go on: the detail page's button and a list's cards say the same. */
export function CompareOutcome({ result }: { result: CompareResult }) {
  if (result.ok) {
    return (
      <>
        In comparison ({result.count} of 4). <SiteLink to={result.compareUrl}>Compare now</SiteLink>
      </>
    );
  }
  if (result.full) {
    return (
      <>
        You are comparing four products. <SiteLink to={result.compareUrl}>Choose one to replace</SiteLink>
      </>
    );
  }
  return <>{result.message}</>;
}
