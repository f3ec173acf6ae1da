import type { CustomerDetails } from "~/orders/customer";

/**
 * The form values of a checkout's customer, to refill the form ("Change details") and mirror locally: its own
 * module, so the payment step's script (loaded when it is shown) carries it, not every checkout's first load.
 */
export function customerDetails(customer: CustomerDetails): CustomerDetails {
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    phone: customer.phone,
    address: customer.address,
    city: customer.city,
    state: customer.state,
    postalCode: customer.postalCode,
  };
}
