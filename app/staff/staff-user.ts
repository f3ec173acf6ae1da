/** What the rest of the app knows about a signed-in staff member; never the hash. */
export interface StaffUser {
  id: string;
  email: string;
}
