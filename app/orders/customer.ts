/**
 * The customer a checkout collects, as its form names the fields: the one
 * shape the checkout form, the stored order (which adds the full name and the
 * country) and the payment providers (which add the country code) build on.
 * Client-safe and import-free, so the database schema and the services may
 * take it from here.
 */
export type CustomerField = "firstName" | "lastName" | "email" | "phone" | "address" | "city" | "state" | "postalCode";

export type CustomerDetails = Record<CustomerField, string>;
