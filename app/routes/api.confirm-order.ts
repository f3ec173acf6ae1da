import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { affirmReturnPath } from "~/payments/affirm-confirmation.server";
import { fieldsOf, MAX_FORM_FIELDS, readFormData, SHOPPER_FORM_MAX_BYTES } from "~/utils/forms.server";

/**
 * Affirm's user_confirmation_url: once the shopper confirms the loan, Affirm
 * posts `checkout_token` here (or adds it to the query, for the GET variant).
 * Nothing is decided here: the shopper goes on to the return page, which
 * authorizes the loan on the server before recording the order.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  // Affirm's page posts from its own site; a body that is no small form carries no token.
  const read = await readFormData(request, context.store.config, {
    maxBytes: SHOPPER_FORM_MAX_BYTES,
    maxFields: MAX_FORM_FIELDS,
    fromAnySite: true,
  });
  const token = read.ok ? (fieldsOf(read.formData).checkout_token ?? null) : null;
  return redirect(await affirmReturnPath(context.store.db, token), 303);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("checkout_token");
  return redirect(await affirmReturnPath(context.store.db, token), 303);
}
