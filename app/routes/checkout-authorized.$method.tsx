import { formatUsd, SiteLink } from "~/components/shared";
import {
  data,
  redirect,
  cartCookieHeader,
  readCart,
  clearDetailsCookieHeader,
  lastOrderCookieHeader,
  readLastOrderId,
  confirmationEmailState,
  confirmPayment,
  PAYMENT_FAILED_FALLBACK,
  AFFIRM_AUTHORIZATION_FAILED,
  orderTaxNoteOf,
} from "~/server-api";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { ForgetCustomerDetails } from "~/components/checkout/ForgetCustomerDetails";
import { cartWithoutPaidItems } from "~/cart/cart";
import type { ConfirmationEmailState } from "~/orders/confirmation-email";
import { ConfirmationEmailNotice } from "~/components/ConfirmationEmailNotice";
import { CHARGED_TWICE_MESSAGE, PAYMENT_PENDING_EMAIL_NOTE } from "~/payments/messages";
import { isPaymentMethod, type PaymentMethod } from "~/services/payments/types";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: pageTitle(data) }];

/** The browser title says what happened: only a recorded order is thanked for. */
function pageTitle(view: View | undefined): string {
  switch (view?.kind) {
    case "paid":
      return "Thank You for Your Order!";
    case "failed":
      return "Payment not completed";
    case "pending":
      return "Payment not finished";
    default:
      return "Order not found";
  }
}

type View =
  | {
      kind: "paid";
      orderId: string;
      email: string;
      firstName: string;
      emailState: ConfirmationEmailState;
      chargedTwice: boolean;
      /** What the order was charged, its tax and what the TAX line says about it. */
      money: { totalCents: number; taxCents: number; taxNote: string | null };
    }
  | { kind: "failed"; alert: string; checkoutPath: string | null }
  | { kind: "pending"; checkoutPath: string; query: [string, string][] }
  | { kind: "missing-token" };

/**
 * Where a shopper lands after paying. Nothing is recorded from the visit
 * itself: the server asks the payment provider whether the payment went
 * through, and only then records the order (once per payment), emails the
 * confirmation and resets the purchase.
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const checkoutToken = url.searchParams.get("checkout_token");
  const attemptId = url.searchParams.get("attempt") ?? "";
  if (!checkoutToken) return data<View>({ kind: "missing-token" }, { status: 400 });
  if (!isPaymentMethod(params.method)) throw new Response("Unknown payment method", { status: 404 });

  const db = context.store.db;
  const outcome = await confirmPayment(context.store, {
    method: params.method,
    checkoutToken,
    attemptId,
    returnParams: url.searchParams,
  });
  switch (outcome.status) {
    case "paid": {
      const headers = new Headers();
      headers.append("Set-Cookie", await lastOrderCookieHeader(context.store, request, outcome.order.orderId));
      // Purchase reset: the customer details kept for the checkout are forgotten (here and, with script, locally).
      headers.append("Set-Cookie", await clearDetailsCookieHeader(context.store, request));
      const firstVisit = (await readLastOrderId(context.store, request)) !== outcome.order.orderId;
      const cart = await readCart(context.store, request);
      if (outcome.kind === "cart" && firstVisit && cart.length > 0) {
        // Purchase reset: the paid lines leave the cart (lines added since stay), then this page is shown again
        // so the header renders the new cart too. Only once per order: a reload must not take them off again.
        headers.append("Set-Cookie", await cartCookieHeader(context.store, request, cartWithoutPaidItems(cart, outcome.order.items)));
        throw redirect(`${url.pathname}${url.search}`, { headers });
      }
      const view: View = {
        kind: "paid",
        orderId: outcome.order.orderId,
        email: outcome.order.customer.email,
        firstName: outcome.order.customer.firstName,
        emailState: await confirmationEmailState(db, outcome.order.orderId),
        chargedTwice: outcome.chargedTwice,
        money: { totalCents: outcome.order.totalCents, taxCents: outcome.order.taxCents, taxNote: orderTaxNoteOf(outcome.order) },
      };
      return data(view, { headers });
    }
    case "declined":
      return data<View>(
        { kind: "failed", alert: failureAlert(params.method, outcome.message), checkoutPath: outcome.checkoutPath },
        { status: 402 },
      );
    case "pending":
      return data<View>({ kind: "pending", checkoutPath: outcome.checkoutPath, query: [...url.searchParams.entries()].slice(0, 10) });
    case "unknown":
      return data<View>({ kind: "failed", alert: failureAlert(params.method, ""), checkoutPath: null }, { status: 404 });
  }
}

/** Financing has the spec's own authorization failure text; other methods say what the provider said. */
function failureAlert(method: PaymentMethod, message: string): string {
  return method === "affirm" ? AFFIRM_AUTHORIZATION_FAILED : `Payment failed: ${message || PAYMENT_FAILED_FALLBACK}`;
}

export default function CheckoutAuthorized() {
  const view = useLoaderData<typeof loader>();
  return <div className="container order-complete">{renderView(view)}</div>;
}

function renderView(view: View) {
  switch (view.kind) {
    case "paid":
      return (
        <>
          <ForgetCustomerDetails />
          {view.chargedTwice ? (
            <p className="notice notice--error" role="alert" data-testid="charged-twice">
              {CHARGED_TWICE_MESSAGE} We have emailed you about it.
            </p>
          ) : null}
          <OrderComplete
            orderId={view.orderId}
            email={view.email}
            firstName={view.firstName}
            emailState={view.emailState}
            money={view.money}
          />
        </>
      );
    case "failed":
      return (
        <>
          <h1>Payment not completed</h1>
          <p className="notice notice--error" role="alert">
            {view.alert}
          </p>
          <p>Your cart has not changed. You can try again or choose another payment method.</p>
          <SiteLink className="button button--primary" to={view.checkoutPath ?? "/cart"}>
            Back to checkout
          </SiteLink>
        </>
      );
    case "pending":
      return (
        <>
          <h1>Payment not finished</h1>
          <p>We have not received a decision for this payment yet. {PAYMENT_PENDING_EMAIL_NOTE}</p>
          <p>Please do not pay again while we wait: if this payment goes through, it becomes your order.</p>
          <Form method="get" reloadDocument className="order-complete__actions">
            {view.query.map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <button type="submit" className="button button--primary">
              Check again
            </button>{" "}
            <SiteLink className="button" to={view.checkoutPath}>
              Back to checkout
            </SiteLink>
          </Form>
        </>
      );
    case "missing-token":
      return (
        <>
          <h1>Order not found</h1>
          <p className="notice notice--error" role="alert">
            Checkout token not found in URL.
          </p>
          <SiteLink className="button" to="/cart">
            Go to your cart
          </SiteLink>
        </>
      );
  }
}

function OrderComplete({
  orderId,
  email,
  firstName,
  emailState,
  money,
}: {
  orderId: string;
  email: string;
  firstName: string;
  emailState: ConfirmationEmailState;
  money: { totalCents: number; taxCents: number; taxNote: string | null };
}) {
  return (
    <>
      <h1>Thank You for Your Order!</h1>
      <ConfirmationEmailNotice firstName={firstName} email={email} state={emailState} orderId={orderId} />
      <p className="order-complete__id">
        Your Order ID: <strong data-testid="order-id">{orderId}</strong>
      </p>
      <p data-testid="order-total">
        Total: <strong>{formatUsd(money.totalCents)}</strong>, including {formatUsd(money.taxCents)} sales tax.
        {money.taxNote ? ` ${money.taxNote}` : ""}
      </p>
      <p>
        <SiteLink className="button button--primary" to={`/order-status/${orderId}`}>
          Check order status
        </SiteLink>{" "}
        <SiteLink className="button" to="/products/all/all">
          Continue shopping
        </SiteLink>
      </p>
    </>
  );
}
