import { data, redirect, contactRateLimitMessage, receiveContactMessage, retryAfterSeconds, readForm } from "~/server-api";
import type { ActionFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLocation, useNavigation, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import {
  CONTACT_FIELDS,
  CONTACT_MESSAGES,
  HONEYPOT_FIELD,
  SERVICE_HOURS,
  type ContactErrors,
  type ContactField,
  type ContactValues,
} from "~/contact/contact";
import type { RootLoaderData } from "~/root";
import contentStyles from "~/styles/content.css";
import { telHref, SiteLink } from "~/components/shared";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export const meta: MetaFunction = ({ matches }) => {
  const store = (matches.find((match) => match.id === "root")?.data as RootLoaderData | undefined)?.store;
  return [
    { title: `Contact Us | ${store?.storeName ?? "Outdoor Kitchen Outlet"}` },
    {
      name: "description",
      content:
        "Call, email or write to our grill and outdoor kitchen experts, and read answers about shipping, returns and order tracking.",
    },
  ];
};

type ContactActionData = { values: ContactValues; errors: ContactErrors; formError?: string };

const SENT_PATH = "/contact?sent=1";

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await receiveContactMessage(context.store, context.clientAddress, await readForm(request, context.store.config));
  switch (outcome.status) {
    // Bots that fill the hidden field are told "thank you" and nothing is kept or sent.
    case "sent":
    case "bot":
      return redirect(SENT_PATH, 303);
    case "invalid":
      return data<ContactActionData>({ values: outcome.values, errors: outcome.errors }, { status: 400 });
    case "rate-limited":
      return data<ContactActionData>(
        { values: outcome.values, errors: {}, formError: contactRateLimitMessage(outcome.retryAfterMs) },
        { status: 429, headers: { "Retry-After": String(retryAfterSeconds(outcome.retryAfterMs)) } },
      );
    case "failed":
      return data<ContactActionData>({ values: outcome.values, errors: {}, formError: CONTACT_MESSAGES.failed }, { status: 503 });
  }
}

const FAQ: Array<{ question: string; answer: string }> = [
  {
    question: "How long does shipping take?",
    answer:
      "Most orders leave our warehouse within 24 hours and arrive within 3-5 business days. Large items travel by freight, and a few brands build to order, which the product page tells you before you buy.",
  },
  {
    question: "What is your return policy?",
    answer:
      "You can return new, unused items in their original packaging within 30 days of delivery. Ask us for a return first and we will send a return authorization and labels; shipping both ways is deducted from the refund.",
  },
  {
    question: "Do you ship outside the United States?",
    answer:
      "No. We currently ship only to addresses in the United States. Remote locations may have an extra delivery charge, and we will tell you before anything ships.",
  },
  {
    question: "How can I track my order?",
    answer:
      "As soon as your order ships we email you its tracking details. You can also look it up at any time on the order status page with the Order ID from your confirmation email.",
  },
  {
    question: "Can I change or cancel my order?",
    answer:
      "Call or email us as soon as possible. We can usually change or cancel an order before it leaves the warehouse; once the carrier has it, the address and delivery date can no longer be changed.",
  },
];

const FIELD_LABELS: Record<ContactField, string> = { name: "Name", email: "Email", phone: "Phone", message: "Message" };

export default function ContactPage() {
  const root = useRouteLoaderData<RootLoaderData>("root");
  const store = root?.store;
  const actionData = useActionData<ContactActionData>();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/contact") === true;
  const sent = searchParams.get("sent") === "1" && !actionData;
  const errors = actionData?.errors ?? {};
  const values = actionData?.values;

  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!actionData) return;
    const firstInvalid = CONTACT_FIELDS.find((field) => actionData.errors[field]);
    if (firstInvalid) formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
  }, [actionData]);

  useEffect(() => {
    if (sent) successRef.current?.focus();
  }, [sent, location.key]);

  return (
    <div className="container content-page contact-page">
      <h1>Contact Us</h1>
      <p className="content-page__lead">
        Questions about a grill, an outdoor kitchen layout or an order? Send us a message and one of our experts will get back to you within
        one business day.
      </p>

      <div className="contact-page__columns">
        <section className="contact-page__form" aria-labelledby="contact-form-heading">
          <h2 id="contact-form-heading">Send us a message</h2>
          {sent ? (
            <p ref={successRef} className="form-success form-success--block" role="status" tabIndex={-1}>
              {CONTACT_MESSAGES.success}
            </p>
          ) : null}
          {actionData?.formError ? (
            <p className="form-error" role="alert">
              {actionData.formError}
              {store ? (
                <>
                  {" "}
                  Phone: <a href={telHref(store.storePhone)}>{store.storePhone}</a>.
                </>
              ) : null}
            </p>
          ) : null}
          <Form
            discover="none"
            ref={formRef}
            key={sent ? location.key : "contact-form"}
            method="post"
            action="/contact"
            noValidate
            preventScrollReset
            className="stacked-form"
          >
            <p className="stacked-form__note">All fields are required.</p>
            <Field name="name" autoComplete="name" defaultValue={values?.name} error={errors.name} />
            <Field name="email" type="email" autoComplete="email" inputMode="email" defaultValue={values?.email} error={errors.email} />
            <Field name="phone" type="tel" autoComplete="tel" inputMode="tel" defaultValue={values?.phone} error={errors.phone} />
            <Field name="message" multiline defaultValue={values?.message} error={errors.message} />
            <div className="honeypot" aria-hidden="true">
              <label htmlFor="contact-company-website">Leave this field empty</label>
              <input id="contact-company-website" type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
            </div>
            <button type="submit" className="button button--primary">
              {submitting ? "Sending…" : "Send message"}
            </button>
          </Form>
        </section>

        <aside className="contact-page__details" aria-labelledby="contact-details-heading">
          <h2 id="contact-details-heading">Contact details</h2>
          {store ? (
            <dl className="contact-details">
              <dt>Sales phone</dt>
              <dd>
                <a href={telHref(store.storePhone)}>{store.storePhone}</a>
              </dd>
              <dt>Sales email</dt>
              <dd>
                <a href={`mailto:${store.storeEmail}`}>{store.storeEmail}</a>
              </dd>
              <dt>Service hours</dt>
              <dd>{SERVICE_HOURS}</dd>
            </dl>
          ) : null}
          <p>
            Looking for an order? <SiteLink to="/order-status">Check your order status</SiteLink> with the Order ID from your confirmation
            email.
          </p>
        </aside>
      </div>

      <section className="faq" aria-labelledby="faq-heading">
        <h2 id="faq-heading">Frequently asked questions</h2>
        {FAQ.map((item) => (
          <details key={item.question} className="faq__item">
            <summary>{item.question}</summary>
            <p>{item.answer}</p>
          </details>
        ))}
      </section>
    </div>
  );
}

function Field({
  name,
  type = "text",
  autoComplete,
  inputMode,
  multiline = false,
  defaultValue,
  error,
}: {
  name: ContactField;
  type?: "text" | "email" | "tel";
  autoComplete?: string;
  inputMode?: "email" | "tel";
  multiline?: boolean;
  defaultValue?: string;
  error?: string;
}) {
  const id = `contact-${name}`;
  const errorId = `${id}-error`;
  const common = {
    id,
    name,
    required: true,
    defaultValue: defaultValue ?? "",
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{FIELD_LABELS[name]}</label>
      {multiline ? <textarea {...common} rows={6} /> : <input {...common} type={type} autoComplete={autoComplete} inputMode={inputMode} />}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
