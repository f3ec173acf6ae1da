import type { OrderCustomer } from "~/db/schema";
import { formatPhone, SiteLink } from "~/components/shared";

/** The submitted contact and address, with a way back to change them. */
export function CheckoutDetails({ customer, editPath }: { customer: OrderCustomer; editPath: string }) {
  return (
    <section className="checkout-details" aria-labelledby="ship-to-heading">
      <h2 id="ship-to-heading">Ship to</h2>
      <address>
        {customer.name}
        <br />
        {customer.address}
        <br />
        {customer.city}, {customer.state} {customer.postalCode}
        <br />
        {customer.country}
        <br />
        {customer.email} · {formatPhone(customer.phone) || customer.phone}
      </address>
      <SiteLink to={editPath}>Change details</SiteLink>
    </section>
  );
}
