import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useParams } from "@remix-run/react";
import { listOutboxEmails } from "~/services/email/outbox.server";
import { requireOutboxAccess } from "~/staff/outbox-access.server";
import contentStyles from "~/styles/content.css";
import { formatDateTimeUtc, SiteLink } from "~/components/shared";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "private, nofollow" };

/**
 * /dev/outbox: the emails the offline stand-in "sent", newest first. Only
 * there while the stand-in is the active sender, and only for signed-in staff
 * (or a development build); anyone else gets a 404.
 */
export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export const meta: MetaFunction = () => [
  { title: "Offline email outbox" },
  { name: "description", content: "Emails the store would have sent. Nothing here was sent." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const db = context.store.db;
  await requireOutboxAccess(context.store, request);
  const emails = await listOutboxEmails(db);
  return { emails };
}

export default function OutboxPage() {
  const { emails } = useLoaderData<typeof loader>();
  const { id } = useParams();
  return (
    <div className="container content-page outbox">
      <h1>Offline email outbox — nothing here was sent</h1>
      <p className="outbox__notice" role="note">
        Email is not configured (no POSTMARK_SERVER_TOKEN), so every email the store would send is kept here instead. No one received these
        messages.
      </p>
      <div className={id ? "outbox__layout outbox__layout--detail" : "outbox__layout"}>
        <section aria-labelledby="outbox-list-heading">
          <h2 id="outbox-list-heading">{emails.length === 1 ? "1 email" : `${emails.length} emails`}, newest first</h2>
          {emails.length === 0 ? (
            <p>The outbox is empty. Place an order or send the contact form, and its email appears here.</p>
          ) : (
            <ol className="outbox__list">
              {emails.map((email) => (
                <li key={email.id}>
                  <SiteLink
                    to={`/dev/outbox/${email.id}`}
                    className={String(email.id) === id ? "outbox__item active" : "outbox__item"}
                    aria-current={String(email.id) === id ? "page" : undefined}
                    keepScroll
                  >
                    <strong className="outbox__subject">{email.subject}</strong>
                    <span>To: {email.toAddress}</span>
                    <span>
                      <time dateTime={new Date(email.createdAt).toISOString()}>{formatDateTimeUtc(email.createdAt)}</time>
                      {email.tag ? <span className="outbox__tag"> · {email.tag}</span> : null}
                    </span>
                  </SiteLink>
                </li>
              ))}
            </ol>
          )}
        </section>
        <div className="outbox__detail">
          <Outlet />
        </div>
      </div>
      {id ? (
        <p>
          <SiteLink to="/dev/outbox">Back to all emails</SiteLink>
        </p>
      ) : null}
    </div>
  );
}
