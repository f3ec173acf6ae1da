import { deferred } from "~/components/shared";

/**
 * The payment step (PaymentStep.tsx) is not part of the checkout's first load: the details form is,
 * and the payment step's script loads once it is drawn. Drawn by the server, its payment buttons
 * post as plain forms until then; each provider's own code loads only when the shopper picks it.
 */
export const PaymentStep = deferred(() => import("./PaymentStep").then((module) => module.PaymentStep), { name: "payment-step" });
