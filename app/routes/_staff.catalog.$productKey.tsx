import { decimalOfCents } from "~/utils/money";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTimeUtc, formatUsd, productPath, SiteLink } from "~/components/shared";
import { CsrfField } from "~/components/staff/CsrfField";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffTable } from "~/components/staff/StaffTable";
import { catalogProductHref, DESK_DETAILS_INTENT, DESK_PRICE_INTENT } from "~/catalog/desk/catalog-desk";
import { CHANGE_STATUS, changeProducts, deskProduct } from "~/catalog/desk/catalog-desk.server";
import { deskForm, type DeskForm } from "~/catalog/desk/desk-form.server";
import {
  describeDeskValue,
  DESCRIPTION_MAX,
  DESK_FIELD_LABELS,
  DESK_MESSAGES,
  TITLE_MAX,
  utcDateTimeInputValue,
  type DeskField,
  type DeskValues,
} from "~/catalog/desk/desk-values";
import { verifyCsrf } from "~/staff/csrf.server";
import { requireStaff } from "~/staff/guard.server";
import { mayDo, OWNER_ONLY } from "~/staff/roles";
import type { Flash } from "~/staff/session.server";
import { FORM_EXPIRED } from "~/staff/view";
import { parseForm, readForm, requirePost } from "~/utils/forms.server";

export const meta: MetaFunction = ({ params }) => [{ title: `${params.productKey ?? "Product"} | Catalogue` }];

function keyOf(params: { productKey?: string }): string {
  return (params.productKey ?? "").slice(0, 200);
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const productKey = keyOf(params);
  const found = await deskProduct(context.store.db, productKey);
  if (!found) throw new Response(`There is no product ${productKey.slice(0, 60)} in the catalogue.`, { status: 404 });
  return data(
    {
      staffEmail: staff.staff.email,
      staffRole: staff.staff.role,
      csrf: staff.csrf,
      flash: staff.flash,
      mayPrice: mayDo(staff.staff.role, "prices"),
      ...found,
    },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

type ActionData = { flash: Flash; intent?: string; fields?: Record<string, string> };

/** What a refused form showed, so the page shows it again (text only, each cut short). */
function echoedFields(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([name]) => name !== "csrf")
      .map(([name, value]) => [name, value.slice(0, 10_000)]),
  );
}

function valuesOf(form: DeskForm): Partial<DeskValues> {
  if (form.intent === DESK_PRICE_INTENT) {
    const { intent: _intent, version: _version, ...prices } = form;
    return prices;
  }
  return {
    title: form.title,
    description: form.description,
    published: form.visibility === "published",
    nonReturnable: form.nonReturnable,
    customMade: form.customMade,
    madeToOrder: form.madeToOrder,
  };
}

/**
 * A product's prices (owners only: anyone else is refused with 403 before the form is read further) or its
 * details. A success redirects back here (303) with its message; a refusal is this page again with its
 * message and the values sent: 400 for the form, 403 for the token or the role, 404, 409 when the product
 * changed since the page was shown.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  requirePost(request);
  const staff = await requireStaff(context.store, request);
  const productKey = keyOf(params);
  const form = await readForm(request, context.store.config);
  const reply = async (message: string, status: number) =>
    data<ActionData>(
      { flash: { kind: "error", message }, intent: form.intent, fields: echoedFields(form) },
      { status, headers: { "Set-Cookie": await staff.commit() } },
    );
  if (!verifyCsrf(staff.csrf, form)) return reply(FORM_EXPIRED, 403);
  if (form.intent === DESK_PRICE_INTENT && !mayDo(staff.staff.role, "prices")) return reply(OWNER_ONLY.prices, 403);
  const parsed = parseForm(deskForm, form);
  if (!parsed.ok) return reply(Object.values(parsed.errors)[0] ?? "Please check the form.", 400);

  const outcome = await changeProducts(context.store.db, {
    staffEmail: staff.staff.email,
    source: "desk",
    products: [{ productKey, expectedVersion: parsed.data.version, values: valuesOf(parsed.data) }],
  });
  if (!outcome.ok) return reply(outcome.message, CHANGE_STATUS[outcome.reason]);
  const changed = outcome.changes[0]?.changes ?? [];
  await staff.setFlash({
    kind: "success",
    message:
      changed.length === 0
        ? DESK_MESSAGES.nothing
        : `Saved: ${changed.map((change) => `${DESK_FIELD_LABELS[change.field]} ${describeDeskValue(change.field, change.after)}`).join("; ")}. Shoppers see it now.`,
  });
  return redirect(catalogProductHref(productKey), { status: 303, headers: { "Set-Cookie": await staff.commit() } });
}

const money = (cents: number | null) => (cents === null ? "" : decimalOfCents(cents));

export default function CatalogProduct() {
  const { staffEmail, staffRole, csrf, flash, mayPrice, row, history } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const message = actionData?.flash ?? flash;
  const sent = (intent: string, name: string, shown: string) =>
    actionData?.intent === intent && actionData.fields?.[name] !== undefined ? actionData.fields[name] : shown;
  const formKey = `${row.deskVersion}`;
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/catalog">← All products</SiteLink>
      </p>
      <h1>{row.title}</h1>
      <StaffMessage message={message} />
      <dl className="order-panel__meta" data-testid="catalog-facts">
        <dt>Product key</dt>
        <dd>{row.key}</dd>
        <dt>Brand and model</dt>
        <dd>
          {row.brand} {row.model}
        </dd>
        <dt>Shoppers pay now</dt>
        <dd data-testid="price-now">
          {formatUsd(row.saleRunsNow && row.salePriceCents !== null ? row.salePriceCents : row.priceCents)}
          {row.saleRunsNow ? " (sale price)" : ""}
        </dd>
        <dt>Shoppers see it</dt>
        <dd data-testid="visibility">{row.published ? "Published" : "Hidden: its page answers “not found” and it is in no list"}</dd>
        <dt>In the store</dt>
        <dd>{row.published ? <a href={productPath(row)}>Open its page</a> : "—"}</dd>
      </dl>

      <section aria-labelledby="prices-heading">
        <h2 id="prices-heading">Prices</h2>
        {mayPrice ? (
          <Form method="post" action={catalogProductHref(row.key)} className="status-form" key={`p${formKey}`}>
            <CsrfField token={csrf} />
            <input type="hidden" name="intent" value={DESK_PRICE_INTENT} />
            <input type="hidden" name="version" value={row.deskVersion} />
            <PriceField
              id="desk-price"
              name="priceCents"
              label="Price (US dollars)"
              required
              value={sent(DESK_PRICE_INTENT, "priceCents", money(row.priceCents))}
            />
            <PriceField
              id="desk-compare"
              name="compareAtCents"
              label="Compare-at price, struck through (optional)"
              value={sent(DESK_PRICE_INTENT, "compareAtCents", money(row.compareAtCents))}
            />
            <PriceField
              id="desk-sale"
              name="salePriceCents"
              label="Sale price (optional)"
              value={sent(DESK_PRICE_INTENT, "salePriceCents", money(row.salePriceCents))}
            />
            <div className="field">
              <label htmlFor="desk-sale-starts">Sale starts (UTC; empty: at once)</label>
              <input
                id="desk-sale-starts"
                name="saleStartsAt"
                type="datetime-local"
                defaultValue={sent(DESK_PRICE_INTENT, "saleStartsAt", utcDateTimeInputValue(row.saleStartsAt))}
              />
            </div>
            <div className="field">
              <label htmlFor="desk-sale-ends">Sale ends (UTC; empty: until changed)</label>
              <input
                id="desk-sale-ends"
                name="saleEndsAt"
                type="datetime-local"
                defaultValue={sent(DESK_PRICE_INTENT, "saleEndsAt", utcDateTimeInputValue(row.saleEndsAt))}
              />
            </div>
            <button type="submit" className="button button--dark">
              Save prices
            </button>
            <p className="staff-muted">
              The sale price is charged from its start until its end; shoppers see the price struck through beside it only while it runs.
              Checkouts already made keep their price. If someone changes this product before you save, nothing is saved and you are told.
            </p>
          </Form>
        ) : (
          <>
            <dl className="order-panel__meta" data-testid="prices-read-only">
              <dt>Price</dt>
              <dd>{formatUsd(row.priceCents)}</dd>
              <dt>Compare-at price</dt>
              <dd>{row.compareAtCents === null ? "none" : formatUsd(row.compareAtCents)}</dd>
              <dt>Sale</dt>
              <dd>
                {row.salePriceCents === null
                  ? "none"
                  : `${formatUsd(row.salePriceCents)} from ${row.saleStartsAt ? formatDateTimeUtc(row.saleStartsAt) : "now"} until ${row.saleEndsAt ? formatDateTimeUtc(row.saleEndsAt) : "changed"}`}
              </dd>
            </dl>
            <p className="staff-muted">Prices are changed by an owner.</p>
          </>
        )}
      </section>

      <section aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        <Form method="post" action={catalogProductHref(row.key)} className="status-form" key={`d${formKey}`}>
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value={DESK_DETAILS_INTENT} />
          <input type="hidden" name="version" value={row.deskVersion} />
          <div className="field">
            <label htmlFor="desk-title">Title</label>
            <input
              id="desk-title"
              name="title"
              type="text"
              required
              maxLength={TITLE_MAX}
              defaultValue={sent(DESK_DETAILS_INTENT, "title", row.title)}
            />
          </div>
          <div className="field">
            <label htmlFor="desk-description">Description</label>
            <textarea
              id="desk-description"
              name="description"
              required
              rows={8}
              maxLength={DESCRIPTION_MAX}
              defaultValue={sent(DESK_DETAILS_INTENT, "description", row.description)}
            />
          </div>
          <fieldset>
            <legend>Shoppers see it</legend>
            <span>
              <input id="desk-published" type="radio" name="visibility" value="published" defaultChecked={row.published} />{" "}
              <label htmlFor="desk-published">Published</label>
            </span>{" "}
            <span>
              <input id="desk-hidden" type="radio" name="visibility" value="hidden" defaultChecked={!row.published} />{" "}
              <label htmlFor="desk-hidden">Hidden (its page answers “not found”; orders keep it)</label>
            </span>
          </fieldset>
          <fieldset>
            <legend>Returns policy</legend>
            <Flag id="desk-non-returnable" name="nonReturnable" label="Non-returnable" checked={row.nonReturnable} />
            <Flag id="desk-custom" name="customMade" label="Custom" checked={row.customMade} />
            <Flag id="desk-made-to-order" name="madeToOrder" label="Made to order" checked={row.madeToOrder} />
          </fieldset>
          <button type="submit" className="button button--dark">
            Save details
          </button>
        </Form>
      </section>

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">Changes</h2>
        {history.length === 0 ? (
          <p className="staff-empty">No change yet: the product is as the catalogue files have it.</p>
        ) : (
          <StaffTable
            caption="The last 100 changes, newest first"
            columns={["When", "What", "Before", "After", "Who"]}
            testId="catalog-history"
          >
            {history.map((change) => (
              <tr key={change.id} data-testid="catalog-change">
                <th scope="row">{formatDateTimeUtc(change.changedAt)}</th>
                <td data-label="What">{DESK_FIELD_LABELS[change.field as DeskField] ?? change.field}</td>
                <td data-label="Before">{shortText(describeDeskValue(change.field, change.oldValue))}</td>
                <td data-label="After">{shortText(describeDeskValue(change.field, change.newValue))}</td>
                <td data-label="Who">
                  {change.staffEmail}
                  {change.source === "desk" ? "" : " (CSV import)"}
                </td>
              </tr>
            ))}
          </StaffTable>
        )}
      </section>
    </StaffPage>
  );
}

function shortText(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function PriceField({ id, name, label, value, required }: { id: string; name: string; label: string; value: string; required?: boolean }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="text"
        inputMode="decimal"
        required={required}
        maxLength={20}
        defaultValue={value}
        placeholder="1299.00"
      />
    </div>
  );
}

function Flag({ id, name, label, checked }: { id: string; name: string; label: string; checked: boolean }) {
  return (
    <span>
      <input id={id} type="checkbox" name={name} value="on" defaultChecked={checked} /> <label htmlFor={id}>{label}</label>{" "}
    </span>
  );
}
