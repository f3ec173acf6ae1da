import { useEffect } from "react";
import { financingMonthlyCents, useStore, formatUsd } from "~/components/shared";

declare global {
  interface Window {
    _affirm_config?: { public_api_key: string; script: string };
    affirm?: { ui?: { ready?: (callback: () => void) => void; refresh?: () => void } };
  }
}

/**
 * The product page's "as low as" line. With Affirm configured it is also
 * Affirm's promotional message (`.affirm-as-low-as`, data-amount = 100 x the
 * price), rendered by affirm.js, which is fetched only after the page has
 * hydrated and only on pages showing this line; our own line stays as it is
 * without script, while affirm.js loads, or if it fails to.
 */
export function FinancingLine({ priceCents }: { priceCents: number }) {
  const { affirmPublicKey, affirmScriptUrl } = useStore();
  const affirmEnabled = Boolean(affirmPublicKey && affirmScriptUrl);
  useEffect(() => {
    if (affirmPublicKey && affirmScriptUrl) showAffirmPromotions(affirmPublicKey, affirmScriptUrl);
  }, [affirmPublicKey, affirmScriptUrl, priceCents]);

  const text = (
    <>
      As low as <strong>{formatUsd(financingMonthlyCents(priceCents))}/mo</strong> with 0% APR financing
    </>
  );
  if (!affirmEnabled) return <p className="financing-line">{text}</p>;
  // Keyed by price: affirm.js rewrites this element's content, so React must not reuse it for another product.
  return (
    <p key={priceCents} className="financing-line affirm-as-low-as" data-page-type="product" data-amount={priceCents}>
      {text}
    </p>
  );
}

let affirmScript: Promise<void> | null = null;

function showAffirmPromotions(publicKey: string, scriptUrl: string) {
  if (!affirmScript) {
    window._affirm_config = { public_api_key: publicKey, script: scriptUrl };
    affirmScript = new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = scriptUrl;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        affirmScript = null;
        reject(new Error("affirm.js did not load"));
      };
      document.head.appendChild(script);
    });
  }
  affirmScript.then(() => window.affirm?.ui?.ready?.(() => window.affirm?.ui?.refresh?.())).catch(() => undefined);
}
