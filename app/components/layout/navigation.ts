import { brandDisplayName, DISPLAYED_BRANDS } from "~/catalog/brands";

/** Header menus of the spec; every tile links to /products/all/{category}. */
export interface MenuLink {
  label: string;
  to: string;
}

export interface Menu {
  label: string;
  to: string;
  links: MenuLink[];
}

export function categoryPath(category: string, brand = "all"): string {
  return `/products/${encodeURIComponent(brand)}/${encodeURIComponent(category)}`;
}

export function brandPath(brand: string): string {
  return `/products/${encodeURIComponent(brand)}/all`;
}

const tile = (label: string, category: string): MenuLink => ({ label, to: categoryPath(category) });

export const CATEGORY_MENUS: Menu[] = [
  {
    label: "Grills & Outdoor Cooking",
    to: categoryPath("BBQ Grills & Smokers"),
    links: [
      tile("Gas Grills", "Gas Grills"),
      tile("Kamado Grills", "Kamado Grills & Smokers"),
      tile("Charcoal Grills", "Charcoal BBQ Grills"),
      tile("Gas Griddles", "Outdoor Flat Top Grills & Gas Griddles"),
      tile("Pizza Ovens", "Outdoor Pizza Ovens"),
    ],
  },
  {
    label: "Outdoor Kitchens",
    to: categoryPath("Outdoor Kitchens"),
    links: [
      tile("Built-In Grills", "Built-In Grills"),
      tile("Storage", "Outdoor Kitchen Cabinets & Storage"),
      tile("Refrigeration", "Outdoor Refrigeration"),
      tile("Side Burners", "Side Burners for Grills and Outdoor Kitchens"),
      tile("Vent Hoods", "Outdoor Vent Hoods: Grill & Range Hoods"),
    ],
  },
  {
    label: "Outdoor Heating & More",
    to: categoryPath("Outdoor Heating & Accessories"),
    links: [
      tile("Patio Heaters", "Patio Heaters"),
      tile("Fire Pits", "Outdoor Fire Pits"),
      tile("DIY Fire Pit Kits", "DIY Fire Pit Kits & Components"),
      tile("Fireplaces", "Outdoor Fireplaces"),
    ],
  },
  {
    label: "BBQ Accessories",
    to: categoryPath("BBQ Grilling Tools & Accessories"),
    links: [
      tile("Covers", "Grill & Smoker Covers"),
      tile("Attachments", "Grill Attachments"),
      tile("Charcoal, Pellets & Starters", "Charcoal, Pellets & Starters"),
      tile("Thermometers", "Grill Thermometers"),
      tile("Tools", "BBQ Grill Tools & Utensils"),
    ],
  },
];

export const BRAND_MENU: Menu = {
  label: "Brands",
  to: "/products/all/all",
  links: [
    { label: "All Brands", to: "/products/all/all" },
    ...DISPLAYED_BRANDS.map((brand) => ({ label: brandDisplayName(brand), to: brandPath(brand) })),
  ],
};

export const UTILITY_LINKS: MenuLink[] = [
  { label: "Financing", to: "/contact" },
  { label: "Pro Services", to: "/contact" },
  { label: "Design Center Locations", to: "/contact" },
  { label: "Gift Cards", to: "/contact" },
  { label: "Check Order Status", to: "/order-status" },
  { label: "Help Center", to: "/contact" },
];

export const PROMO_BANNER = { label: "Save up to $450 on Blaze grills", to: "/products/blaze/all" };

export const POLICY_LINKS: MenuLink[] = [
  { label: "Privacy Policy", to: "/privacy-policy" },
  { label: "Shipping Policy", to: "/shipping-policy" },
  { label: "Return Policy", to: "/return-policy" },
  { label: "Defective Product", to: "/defective-product" },
  { label: "Contact Us", to: "/contact" },
];
