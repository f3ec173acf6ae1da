import { TAX_LINE, formatUsd, ProductImage } from "~/components/shared";

export interface SummaryLine {
  key: string;
  title: string;
  model: string;
  image: string;
  quantity: number;
  unitPriceCents: number;
}

export interface SummaryTotals {
  subtotalCents: number;
  shippingCents: number | null;
  discountCents?: number;
  /** The sales tax; unknown until the address is (then the TAX line says it is calculated at checkout). */
  taxCents?: number | null | undefined;
  /** Why no tax, or how it was worked out: under the TAX line. */
  taxNote?: string | null | undefined;
  totalCents: number;
}

/** The items and the server's totals, as shown beside every checkout form and on receipts. */
export function OrderSummary({ lines, totals, shippingNote }: { lines: SummaryLine[]; totals: SummaryTotals; shippingNote?: string }) {
  return (
    <section className="order-summary" aria-labelledby="order-summary-heading">
      <h2 id="order-summary-heading">Order summary</h2>
      <ul className="order-summary__lines">
        {lines.map((line) => (
          <li key={line.key}>
            <ProductImage src={line.image} alt="" width={56} height={56} />
            <span className="order-summary__title">
              {line.title}
              <small>
                {line.model ? `Model ${line.model} · ` : ""}Qty {line.quantity} × {formatUsd(line.unitPriceCents)}
              </small>
            </span>
            <span className="order-summary__amount">{formatUsd(line.unitPriceCents * line.quantity)}</span>
          </li>
        ))}
      </ul>
      <dl className="order-summary__totals">
        <div>
          <dt>Subtotal</dt>
          <dd data-testid="summary-subtotal">{formatUsd(totals.subtotalCents)}</dd>
        </div>
        {totals.discountCents ? (
          <div>
            <dt>Discount (LOVERUB10)</dt>
            <dd data-testid="summary-discount">−{formatUsd(totals.discountCents)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Shipping</dt>
          <dd data-testid="summary-shipping">
            {totals.shippingCents === null
              ? (shippingNote ?? "Calculated after address")
              : totals.shippingCents === 0
                ? "Free"
                : formatUsd(totals.shippingCents)}
          </dd>
        </div>
        <div>
          <dt>{TAX_LINE.label}</dt>
          <dd data-testid="summary-tax">{totals.taxCents == null ? TAX_LINE.value : formatUsd(totals.taxCents)}</dd>
          {totals.taxNote ? <dd className="order-summary__note">{totals.taxNote}</dd> : null}
        </div>
        <div className="order-summary__total">
          <dt>Total</dt>
          <dd data-testid="summary-total">{formatUsd(totals.totalCents)}</dd>
        </div>
      </dl>
    </section>
  );
}
