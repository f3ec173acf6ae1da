import type { AfterSaleKind } from "~/db/schema";
import type { PublicOrder } from "~/orders/public-order";
import type { CustomerRequestView } from "./requests.server";

/** The return reasons as the form offers them: the schema's RETURN_REASONS (a test holds them equal), without importing the schema into the browser. */
export const REASON_CHOICES = ["Changed my mind", "Arrived damaged", "Wrong item", "Defective"] as const;

/** What the return and claim pages render (client-safe types only). */
export interface AfterSalePageData {
  kind: AfterSaleKind;
  order: PublicOrder;
  /** A signed link that failed: expired or not valid. */
  linkError: string | null;
  /** This browser has proven the order is its own. */
  proven: boolean;
  deliveredAt: string | null;
  requests: CustomerRequestView[];
  /** The key of this rendering of the form: the same form sent twice makes one request. */
  formKey: string | null;
  /** The number of the request just sent, to confirm it. */
  sent: string | null;
  maxPhotos: number;
}

export interface AfterSaleActionData {
  step: "prove" | "request";
  errors: Record<string, string>;
  /** What was done, said above the form (the link emailed). */
  notice?: string;
  refusals?: string[];
  values?: { reason: string; note: string; serialNumber: string; videoUrl: string };
}
