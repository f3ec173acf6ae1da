import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatDateTimeUtc, SiteLink } from "~/components/shared";
import { StaffMessage } from "~/components/staff/StaffMessage";
import { StaffPage } from "~/components/staff/StaffPage";
import { StaffPager } from "~/components/staff/StaffPager";
import { StaffTable } from "~/components/staff/StaffTable";
import { requireStaff } from "~/staff/guard.server";
import { LOW_STOCK_THRESHOLD } from "~/stock/availability";
import { parseStockQuery, stockDeskHref, stockProductHref } from "~/stock/stock-desk";
import { listStock, lowStock, type StockRow } from "~/stock/stock-desk.server";

export const meta: MetaFunction = () => [{ title: "Stock | Staff" }];

/** /stock?q=…&low=1&page=N: a GET form, so a search is a link. The first page also lists the low-stock products. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(context.store, request);
  const { db } = context.store;
  const query = parseStockQuery(new URL(request.url).searchParams);
  const list = await listStock(db, query);
  const low = !query.q && !query.low && query.page === 1 ? await lowStock(db) : null;
  return data(
    { staffEmail: staff.staff.email, staffRole: staff.staff.role, csrf: staff.csrf, flash: staff.flash, query, ...list, low },
    { headers: { "Set-Cookie": await staff.commit() } },
  );
}

type Row = Omit<StockRow, "lastChange"> & { lastChange: Date | string | null };

export default function StockDesk() {
  const { staffEmail, staffRole, csrf, flash, query, rows, hasMore, low } = useLoaderData<typeof loader>();
  const heading = query.low ? "Low stock" : query.q ? `Products matching “${query.q}”` : "All products";
  return (
    <StaffPage email={staffEmail} role={staffRole} csrf={csrf}>
      <p>
        <SiteLink to="/dashboard">← Orders dashboard</SiteLink>
      </p>
      <h1>Stock</h1>
      <StaffMessage message={flash} />
      <p>
        Each product's count: on hand in the warehouse, held by checkouts paying now, and available to shoppers (on hand less held). Open a
        product to set its count.
      </p>
      <ul>
        <li>
          <a href="/stock.csv" download>
            Download every count as CSV
          </a>
        </li>
        <li>
          <SiteLink to="/stock/import">Import counts from a CSV file</SiteLink>
        </li>
      </ul>
      <Form method="get" action="/stock" className="staff-search" role="search">
        <label htmlFor="stock-search">Search products</label>
        <input
          id="stock-search"
          type="search"
          name="q"
          defaultValue={query.q}
          key={query.q}
          placeholder="Product key, title, model or brand"
          maxLength={100}
        />
        <span>
          <input id="stock-low" type="checkbox" name="low" value="1" defaultChecked={query.low} key={String(query.low)} />{" "}
          <label htmlFor="stock-low">Low stock only</label>
        </span>
        <button type="submit" className="button button--small button--dark">
          Search
        </button>
        {query.q || query.low ? (
          <SiteLink to="/stock" className="staff-search__clear">
            Clear search
          </SiteLink>
        ) : null}
      </Form>

      {low ? (
        <section aria-labelledby="low-heading">
          <h2 id="low-heading">Low stock</h2>
          <p>Products with {LOW_STOCK_THRESHOLD} or fewer available, out of stock first.</p>
          {low.rows.length === 0 ? (
            <p className="staff-empty">No product is low on stock.</p>
          ) : (
            <>
              <StockTable rows={low.rows} caption="Low stock, out of stock first" testId="low-stock" />
              {low.total > low.rows.length ? (
                <p>
                  <SiteLink to={stockDeskHref({ low: true })}>All {low.total.toLocaleString("en-US")} low-stock products</SiteLink>
                </p>
              ) : null}
            </>
          )}
        </section>
      ) : null}

      <section aria-labelledby="stock-heading">
        <h2 id="stock-heading">{heading}</h2>
        {rows.length === 0 ? (
          <p className="staff-empty">
            {query.q ? `No product matches “${query.q}”.` : query.low ? "No product is low on stock." : "No product has stock yet."}
          </p>
        ) : (
          <StockTable rows={rows} caption={query.low ? `${heading}, fewest available first` : heading} testId="stock-table" />
        )}
        <StaffPager page={query.page} hasMore={hasMore} hrefFor={(page) => stockDeskHref({ ...query, page })} label="Pages of products" />
      </section>
    </StaffPage>
  );
}

function StockTable({ rows, caption, testId }: { rows: Row[]; caption: string; testId: string }) {
  return (
    <StaffTable caption={caption} columns={["Product", "Policy", "On hand", "Held", "Available", "Last change"]} testId={testId}>
      {rows.map((row) => (
        <tr key={row.productKey} data-testid="stock-row">
          <th scope="row">
            {row.policy === "tracked" ? <SiteLink to={stockProductHref(row.productKey)}>{row.title}</SiteLink> : row.title}
            <br />
            <span className="staff-muted">{row.productKey}</span>
          </th>
          {row.policy === "tracked" ? (
            <>
              <td data-label="Policy">Tracked</td>
              <td data-label="On hand">{row.onHand}</td>
              <td data-label="Held">{row.reserved}</td>
              <td data-label="Available">{row.available === 0 ? <strong>0 (out of stock)</strong> : row.available}</td>
            </>
          ) : (
            <>
              <td data-label="Policy">Made to order{row.leadTime ? ` (${row.leadTime})` : ""}</td>
              <td data-label="On hand">—</td>
              <td data-label="Held">—</td>
              <td data-label="Available">—</td>
            </>
          )}
          <td data-label="Last change">{row.lastChange ? formatDateTimeUtc(row.lastChange) : "—"}</td>
        </tr>
      ))}
    </StaffTable>
  );
}
