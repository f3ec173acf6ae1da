/**
 * What a staff account may do. Owners do everything; staff run the day (orders, returns, stock,
 * the catalogue's words and flags) but do not change prices, import the catalogue, refund money or
 * manage accounts. The pages hide what a role may not do and the server refuses it (403, with
 * `requireOwner` in guard.server.ts).
 * A plain module: the schema, the server and the dashboard's pages share it.
 */
export const STAFF_ROLES = ["owner", "staff"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const OWNER_ONLY = {
  prices: "Only an owner can change prices.",
  catalogImport: "Only an owner can import the catalogue.",
  refunds: "Only an owner can refund money.",
  accounts: "Only an owner can manage staff accounts.",
} as const;
export type OwnerOnlyAction = keyof typeof OWNER_ONLY;

/** What a page shows a staff account where an owner's button or form would be. */
export const DONE_BY_AN_OWNER: Record<OwnerOnlyAction, string> = {
  prices: "Prices are changed by an owner.",
  catalogImport: "The catalogue is imported by an owner.",
  refunds: "Refunds are made by an owner.",
  accounts: "Staff accounts are managed by an owner.",
};

export function mayDo(role: StaffRole, _action: OwnerOnlyAction): boolean {
  return role === "owner";
}

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}
