/**
 * Shown on every page while the offline test payment page is on: orders placed
 * now are approved without charging anyone, and nobody should mistake them for paid ones.
 */
export function TestPaymentsBanner() {
  return (
    <p className="test-payments-banner" role="note">
      Test mode: payments are not charged.
      <span className="test-payments-banner__more"> Orders are approved on the store's test payment page and no money moves.</span>
    </p>
  );
}
