/** What the shopper reads when the sales tax stands in the way of paying (browser-safe: the payment step shows them). */
export const TAX_UNAVAILABLE_MESSAGE =
  "We could not calculate the sales tax for your order just now, so nothing was charged. Please try again in a moment.";
export const TAX_ADDRESS_MESSAGE =
  "We could not find this address to work out its sales tax. Please check the street address, city, state and ZIP code.";
export const TAX_REPRICED_MESSAGE =
  "The sales tax for your address was calculated again and your total changed. Please check the new total before you pay.";
