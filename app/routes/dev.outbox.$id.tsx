import { Fragment } from "react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { EmailText } from "~/components/EmailText";
import type { ErrorTexts } from "~/components/ErrorPage";
import { deferred, formatDateTimeUtc, SiteLink } from "~/components/shared";
import { findOutboxEmail } from "~/services/email/outbox.server";
import { requireOutboxAccess } from "~/staff/outbox-access.server";

/** The error page's script loads only when one is drawn (not behind ~/components/shared: it imports that). */
const ErrorPage = deferred(() => import("~/components/ErrorPage").then((module) => module.ErrorPage));

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.email.subject} — offline email outbox` : "Offline email outbox" },
];

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const db = context.store.db;
  await requireOutboxAccess(context.store, request);
  const email = await findOutboxEmail(db, params.id ?? "");
  if (!email) throw new Response("Not Found", { status: 404 });
  return { email };
}

export default function OutboxEmail() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <article className="outbox-email" aria-labelledby="outbox-email-subject">
      <h2 id="outbox-email-subject">{email.subject}</h2>
      <dl className="outbox-email__headers">
        <dt>To</dt>
        <dd>{email.toAddress}</dd>
        <dt>From</dt>
        <dd>{email.fromAddress}</dd>
        <dt>Date</dt>
        <dd>
          <time dateTime={new Date(email.createdAt).toISOString()}>{formatDateTimeUtc(email.createdAt)}</time>
        </dd>
        {email.tag ? (
          <>
            <dt>Kind</dt>
            <dd>{email.tag}</dd>
          </>
        ) : null}
        {Object.entries(email.headers ?? {}).map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
      <h3>Text version</h3>
      <EmailText text={email.textBody} />
      {email.htmlBody ? (
        <>
          <h3>HTML version</h3>
          <iframe className="outbox-email__html" title={`HTML version of “${email.subject}”`} sandbox="" srcDoc={email.htmlBody} />
        </>
      ) : null}
    </article>
  );
}

const OUTBOX_ERROR_TEXTS: ErrorTexts = {
  404: { title: "Email not found", message: "That email is not in the outbox. It may have been removed when the database was reset." },
};

export function ErrorBoundary() {
  return (
    <ErrorPage error={useRouteError()} texts={OUTBOX_ERROR_TEXTS} actions={<SiteLink to="/dev/outbox">Back to the outbox</SiteLink>} />
  );
}
