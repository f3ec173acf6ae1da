import type { StaffRole } from "./roles";

/** What the rest of the app knows about a signed-in staff member; never the hash. */
export interface StaffUser {
  id: string;
  email: string;
  /** What the account may do (app/staff/roles.ts), read from its row on every request. */
  role: StaffRole;
}
