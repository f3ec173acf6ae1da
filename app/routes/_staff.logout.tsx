import { SiteLink } from "~/components/shared";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { CsrfField } from "~/components/staff/CsrfField";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireStaff } from "~/staff/guard.server";
import { clearedStaffCookie } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { readForm, requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "Sign out | Staff" }];

/** GET /logout asks to confirm (signing out is a POST with the token, never a link). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  return data({ csrf: staff.csrf, email: staff.staff.email }, { headers: { "Set-Cookie": await staff.commit() } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const form = await readForm(request, context.store.config);
  if (!verifyCsrf(staff.csrf, form)) {
    return data({ error: FORM_EXPIRED }, { status: 403, headers: { "Set-Cookie": await staff.commit() } });
  }
  // The row is revoked: a copy of the cookie taken earlier is refused too, by every server process.
  await staff.revoke();
  return redirect("/login", { status: 303, headers: { "Set-Cookie": await clearedStaffCookie(context.store, request) } });
}

export default function Logout() {
  const { csrf, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main id="main" className="staff-login">
      <div className="staff-login__card">
        <h1>Sign out</h1>
        {actionData?.error ? (
          <p className="staff-login__error" role="alert">
            {actionData.error}
          </p>
        ) : null}
        <p>
          Signed in as <strong>{email}</strong>.
        </p>
        <Form method="post" action="/logout">
          <CsrfField token={csrf} />
          <button type="submit" className="button button--primary button--block">
            Sign out
          </button>
        </Form>
        <p>
          <SiteLink to="/dashboard">Back to the dashboard</SiteLink>
        </p>
      </div>
    </main>
  );
}
