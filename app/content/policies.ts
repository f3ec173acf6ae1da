/**
 * The four policy pages, in the store's own words, from the facts in the
 * spec (section 1, "Static policy content"; section 9 for the windows).
 * A section's `contact` flag adds the sales phone and email, which come from
 * the store's configuration at render time.
 */

export type PolicyBlock = { paragraph: string } | { list: string[] };

export interface PolicySection {
  heading: string;
  blocks: PolicyBlock[];
  /** Follow the section with the store's sales phone and email. */
  contact?: boolean;
  /** Follow the section with a link, e.g. to request a return. */
  action?: { label: string; to: string };
}

export interface Policy {
  slug: "privacy-policy" | "shipping-policy" | "defective-product" | "return-policy";
  title: string;
  description: string;
  intro: string;
  sections: PolicySection[];
}

const p = (paragraph: string): PolicyBlock => ({ paragraph });
const list = (...items: string[]): PolicyBlock => ({ list: items });

export const PRIVACY_POLICY: Policy = {
  slug: "privacy-policy",
  title: "Privacy Policy",
  description:
    "How we collect, use and protect your personal information when you shop for grills, outdoor kitchens and outdoor heating with us.",
  intro:
    "Your privacy matters to us. This policy explains what information we collect when you visit or buy from our store, why we collect it and how we look after it.",
  sections: [
    {
      heading: "Who our services are for",
      blocks: [p("Our website and services are intended for adults. You must be over 18 years old to place an order with us.")],
    },
    {
      heading: "Information we collect",
      blocks: [
        p(
          "We collect the personal information you give us, such as your name, email address, phone number and shipping address, only so that we can process your purchase and deliver it.",
        ),
        p(
          "Some information is collected automatically when you use our website, including your IP address, browser type and the pages you visit. It helps us keep the site secure and working well.",
        ),
      ],
    },
    {
      heading: "How we share information",
      blocks: [
        p("We do not sell your personal information, and we do not share it without your consent."),
        p(
          "We work with trusted third parties that display advertising and send email alerts on our behalf. They receive only what they need to provide those services.",
        ),
        p(
          "If you choose to sign in or interact with us through a social-media account, that service may share your profile information with us according to its own privacy settings.",
        ),
      ],
    },
    {
      heading: "Questions about your information",
      blocks: [p("If you have a question about this policy or about the information we hold about you, please get in touch.")],
      contact: true,
    },
  ],
};

export const SHIPPING_POLICY: Policy = {
  slug: "shipping-policy",
  title: "Shipping Policy",
  description:
    "How we ship grills, outdoor kitchens and patio heating: freight delivery, curbside drop-off, remote-area charges and tracking your order.",
  intro:
    "We ship to addresses in the United States. Shipping is free on orders over $49. Here is what to expect from the moment your order leaves our warehouse.",
  sections: [
    {
      heading: "How your order ships",
      blocks: [
        p(
          "Smaller items travel by parcel carrier. Larger orders, such as grills, outdoor kitchen components and heaters, are shipped by freight carriers.",
        ),
        p(
          "Once the carrier has collected your shipment, we can no longer change the delivery address or the delivery date, so please check your details carefully when you order.",
        ),
      ],
    },
    {
      heading: "Freight delivery",
      blocks: [
        list(
          "Freight deliveries are usually made curbside, on a pallet, and need a signature.",
          "In-home delivery is not included; it is only available for an additional charge.",
          "Deliveries to remote locations may carry an extra charge.",
          "We recommend having at least two people available to unload your delivery.",
        ),
      ],
    },
    {
      heading: "Inspecting your delivery",
      blocks: [
        p(
          "Please inspect every shipment within 48 hours of delivery and tell us right away about any damage, so we can help with a claim.",
        ),
      ],
    },
    {
      heading: "Tracking your order",
      blocks: [
        p(
          "We email you tracking details once your order ships. You can also check its progress on our order status page using the Order ID from your confirmation email.",
        ),
      ],
      action: { label: "Check order status", to: "/order-status" },
    },
    {
      heading: "Questions about shipping",
      blocks: [p("Our sales team can help with delivery questions before and after you order.")],
      contact: true,
    },
  ],
};

export const DEFECTIVE_PRODUCT_POLICY: Policy = {
  slug: "defective-product",
  title: "Defective Product Policy",
  description:
    "What to do if a product arrives damaged or develops a defect: manufacturer warranty claims, what to send us and the 48-hour inspection window.",
  intro:
    "We are sorry if something is wrong with your product. Defects are handled through the manufacturer's warranty, and we help you through the claim.",
  sections: [
    {
      heading: "Inspect your shipment within 48 hours",
      blocks: [
        p(
          "Please inspect your shipment within 48 hours of delivery. Reporting damage or a problem promptly makes a claim much easier to resolve.",
        ),
      ],
    },
    {
      heading: "How to make a claim",
      blocks: [
        p(
          "Find your order with the button below and the Order ID from your confirmation email, choose Report a defect, and send us the following; we will pass your claim to the manufacturer:",
        ),
        list(
          "the serial number or numbers of the product;",
          "a description of the problem;",
          "photos or a link to a video that show the defect.",
        ),
      ],
      action: { label: "Report a defect", to: "/order-status" },
      contact: true,
    },
    {
      heading: "What the warranty covers",
      blocks: [
        p("Repairs and replacements follow the terms of the manufacturer's warranty."),
        list("Labor costs are not reimbursed.", "Manufacturers do not accept claims once the warranty period has ended."),
      ],
    },
  ],
};

export const RETURN_POLICY: Policy = {
  slug: "return-policy",
  title: "Return Policy",
  description:
    "Returning an item within 30 days of delivery: what can be returned, how to request a return, return shipping costs and refunds.",
  intro: "If you are not completely happy with your purchase, you can return eligible items within 30 days of delivery.",
  sections: [
    {
      heading: "What can be returned",
      blocks: [
        p("Items must be new, unused and in their original packaging, and returned within 30 days of delivery."),
        p("The following cannot be returned:"),
        list(
          "used or assembled items;",
          "clearance items and warehouse deals;",
          "custom, special-order and made-to-order items;",
          "any item marked as non-returnable.",
        ),
      ],
    },
    {
      heading: "How to request a return",
      blocks: [
        list(
          "Find your order with the button below and the Order ID from your confirmation email, then choose Request a return and confirm the email address you used at checkout (or open the return link in your shipping email).",
          "For items shipped by freight, send us a photo of the item in its packaging first.",
          "Once your return is approved, we email you a return authorization and the return labels.",
          "Ship the return within 30 days of approval.",
        ),
        p("Returns sent without our authorization are not refunded."),
      ],
      action: { label: "Request a return", to: "/order-status" },
    },
    {
      heading: "Refunds",
      blocks: [p("The cost of shipping, both to you and back to us, is deducted from your refund.")],
    },
    {
      heading: "Brands with their own rules",
      blocks: [
        p(
          "One of the manufacturers we carry sets stricter rules: it accepts no returns of made-to-order items or items with custom features, and a wrong or damaged delivery must be reported within 48 hours. We tell you before you order when this applies.",
        ),
      ],
    },
    {
      heading: "Questions about a return",
      blocks: [p("Our sales team will be glad to help.")],
      contact: true,
    },
  ],
};

export const POLICIES = [PRIVACY_POLICY, SHIPPING_POLICY, DEFECTIVE_PRODUCT_POLICY, RETURN_POLICY] as const;
