import type { OrderCustomer, OrderItem } from "~/db/schema";
import type { PaymentOption } from "~/services/payments/types";
import { customerDetails } from "~/checkout/customer-details";
import { CheckoutDetails } from "./CheckoutDetails";
import { CustomerDetailsMirror } from "./CustomerDetailsMirror";
import { OrderSummary } from "./OrderSummary";
import { PaymentMethods } from "./PaymentMethods";

export interface PendingCheckoutView {
  token: string;
  customer: OrderCustomer;
  items: OrderItem[];
  subtotalCents: number;
  shippingCents: number;
  discountCents: number;
  taxCents: number;
  /** Null on a checkout priced before tax: it is priced again when payment starts. */
  tax: unknown;
  totalCents: number;
}

/** The second step of every checkout: who it ships to, how to pay, and the server's totals. */
export function PaymentStep({
  title,
  checkout,
  taxNote,
  paymentOptions,
  editPath,
  stockMessage = null,
  unavailableMessage = null,
  priceNotices = [],
}: {
  title: string;
  checkout: PendingCheckoutView;
  taxNote: string | null;
  paymentOptions: PaymentOption[];
  editPath: string;
  /** A line the stock no longer covers, as the server checked it for this view. */
  stockMessage?: string | null;
  /** A line of a product no longer sold (payment is refused), as the server checked it for this view. */
  unavailableMessage?: string | null;
  /** Lines whose price changed since the checkout was made: it keeps its own (checkout-lines.server.ts). */
  priceNotices?: string[];
}) {
  return (
    <div className="container checkout">
      <h1>{title}</h1>
      <div className="checkout__layout">
        <div>
          <CheckoutDetails customer={checkout.customer} editPath={editPath} />
          <CustomerDetailsMirror details={customerDetails(checkout.customer)} />
          {priceNotices.map((notice) => (
            <p key={notice} className="notice notice--info" role="status">
              {notice}
            </p>
          ))}
          <PaymentMethods
            checkoutToken={checkout.token}
            totalCents={checkout.totalCents}
            options={paymentOptions}
            stockMessage={[unavailableMessage, stockMessage].filter(Boolean).join(" ") || null}
          />
        </div>
        <OrderSummary
          lines={checkout.items.map((item) => ({
            key: item.productKey,
            title: item.title,
            model: item.model,
            image: item.imageUrl,
            quantity: item.quantity,
            unitPriceCents: item.unitPriceCents,
          }))}
          totals={{ ...checkout, taxCents: checkout.tax ? checkout.taxCents : null, taxNote }}
        />
      </div>
    </div>
  );
}
