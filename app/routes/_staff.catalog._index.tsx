import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatUsd, SiteLink } from "~/components/shared";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffPager } from "~/components/staff/StaffPager";
import { StaffTable } from "~/components/staff/StaffTable";
import { catalogCsvHref, catalogDeskHref, catalogProductHref, parseCatalogDeskQuery } from "~/catalog/desk/catalog-desk";
import { deskBrands, deskCategories, listDeskProducts } from "~/catalog/desk/catalog-desk.server";
import { requireStaff } from "~/staff/guard.server";
import { DONE_BY_AN_OWNER, mayDo } from "~/staff/roles";

export const meta: MetaFunction = () => [{ title: "Catalogue | Staff" }];

/** /catalog?q=…&brand=…&category=…&hidden=1&sale=1&page=N: a GET form, so a search is a link. Hidden products are listed too. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const { db } = context.store;
  const query = parseCatalogDeskQuery(new URL(request.url).searchParams);
  const [list, brands, categories] = await Promise.all([listDeskProducts(db, query), deskBrands(db), deskCategories(db)]);
  return data(
    {
      staffEmail: staff.staff.email,
      staffRole: staff.staff.role,
      csrf: staff.csrf,
      flash: staff.flash,
      mayImport: mayDo(staff.staff.role, "catalogImport"),
      query,
      brands,
      categories,
      ...list,
    },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

export default function CatalogDesk() {
  const { staffEmail, staffRole, csrf, flash, mayImport, query, brands, categories, rows, hasMore } = useLoaderData<typeof loader>();
  const filtered = Boolean(query.q || query.brand || query.category || query.hidden || query.onSale);
  const exported = [query.brand && `${query.brand}'s`, query.category && `in ${query.category}`].filter(Boolean).join(" ");
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/dashboard">← Orders dashboard</SiteLink>
      </p>
      <h1>Catalogue</h1>
      <StaffMessage message={flash} />
      <p>
        Open a product to change its price, start a sale, edit its title and description, hide it from shoppers or set what the returns
        policy says of it. Every change is kept with who made it.
      </p>
      <ul>
        <li>
          <a href={catalogCsvHref(query)} download data-testid="catalog-csv-link">
            Download the prices and flags of {exported ? `the products ${exported}` : "every product"} as CSV
          </a>
        </li>
        {mayImport ? (
          <li>
            <SiteLink to="/catalog/import">Import prices and flags from a CSV file</SiteLink>
          </li>
        ) : (
          <li className="staff-muted">{DONE_BY_AN_OWNER.catalogImport}</li>
        )}
      </ul>
      <Form method="get" action="/catalog" className="staff-search" role="search">
        <label htmlFor="catalog-search">Search products</label>
        <input
          id="catalog-search"
          type="search"
          name="q"
          defaultValue={query.q}
          key={query.q}
          placeholder="Product key, title or model"
          maxLength={100}
        />
        <label htmlFor="catalog-brand">Brand</label>
        <select id="catalog-brand" name="brand" defaultValue={query.brand} key={query.brand}>
          <option value="">Every brand</option>
          {brands.map((brand) => (
            <option key={brand} value={brand}>
              {brand}
            </option>
          ))}
        </select>
        <label htmlFor="catalog-category">Category</label>
        <select id="catalog-category" name="category" defaultValue={query.category} key={`c${query.category}`}>
          <option value="">Every category</option>
          {categories.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </select>
        <span>
          <input id="catalog-hidden" type="checkbox" name="hidden" value="1" defaultChecked={query.hidden} key={`h${query.hidden}`} />{" "}
          <label htmlFor="catalog-hidden">Hidden only</label>
        </span>
        <span>
          <input id="catalog-sale" type="checkbox" name="sale" value="1" defaultChecked={query.onSale} key={`s${query.onSale}`} />{" "}
          <label htmlFor="catalog-sale">With a sale</label>
        </span>
        <button type="submit" className="button button--small button--dark">
          Search
        </button>
        {filtered ? (
          <SiteLink to="/catalog" className="staff-search__clear">
            Clear search
          </SiteLink>
        ) : null}
      </Form>

      <section aria-labelledby="catalog-heading">
        <h2 id="catalog-heading">{filtered ? "Products found" : "All products"}</h2>
        {rows.length === 0 ? (
          <p className="staff-empty">No product matches.</p>
        ) : (
          <StaffTable
            caption="Products in catalogue order"
            columns={["Product", "Price", "Sale", "Shoppers see it"]}
            testId="catalog-table"
          >
            {rows.map((row) => (
              <tr key={row.key} data-testid="catalog-row">
                <th scope="row">
                  <SiteLink to={catalogProductHref(row.key)}>{row.title}</SiteLink>
                  <br />
                  <span className="staff-muted">{row.key}</span>
                </th>
                <td data-label="Price">{formatUsd(row.priceCents)}</td>
                <td data-label="Sale">
                  {row.salePriceCents === null
                    ? "—"
                    : `${formatUsd(row.salePriceCents)} ${row.saleRunsNow ? "(running now)" : "(not running now)"}`}
                </td>
                <td data-label="Shoppers see it">{row.published ? "Published" : <strong>Hidden</strong>}</td>
              </tr>
            ))}
          </StaffTable>
        )}
        <StaffPager page={query.page} hasMore={hasMore} hrefFor={(page) => catalogDeskHref({ ...query, page })} label="Pages of products" />
      </section>
    </StaffPage>
  );
}
