import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { brandDisplayName, ProductImage, formatUsd, productPath, SiteLink } from "~/components/shared";
import { AddToCartButton } from "~/components/AddToCartButton";
import { FinancingLine } from "~/components/financing-line-on-demand";
import { COMPARE_STORAGE_KEY, comparePath, compareRows, MAX_COMPARE, parseCompareItems } from "~/guides/compare";
import { applyCompareChange, compareCookieHeader, compareProducts, parseCompareForm, readCompareList } from "~/guides/compare.server";
import guideStyles from "~/styles/guides.css";
import { stockLevels, withCardStock } from "~/server-api";
import { readForm } from "~/utils/forms.server";
import { catalogueHeaders } from "~/utils/cache-control.server";
import type { RouteHandle } from "~/root";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: guideStyles }];

/**
 * `/compare?items=...` is the same page for everyone who opens that address: a catalogue page. A request
 * with a cookie (this browser's own list) is private whatever this says (utils/cache-control.server.ts).
 */
export const headers: HeadersFunction = catalogueHeaders;

export const handle: RouteHandle = { indexing: "noindex" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && data.products.length > 0 ? `Compare: ${data.products.map((p) => p.title).join(" vs. ")}` : "Compare products" },
];

/**
 * `/compare?items={key},{key}` shows those products (a shareable address);
 * plain `/compare` moves to the address of this browser's list.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const fromUrl = parseCompareItems(url.searchParams);
  if (fromUrl === null) {
    const stored = await readCompareList(context.store, request);
    if (stored.length > 0) throw redirect(comparePath(stored));
  }
  const db = context.store.db;
  const list = fromUrl ?? [];
  const products = await compareProducts(db, list);
  const addingKey = url.searchParams.get("add");
  const adding = addingKey && !list.includes(addingKey) ? (await compareProducts(db, [addingKey]))[0] : undefined;
  const onlyDifferences = url.searchParams.get("only") === "differences";
  const rows = compareRows(products);
  // Stock is read per request, never with the memoized products.
  const levels = await stockLevels(
    db,
    products.map((product) => product.key),
  );
  return {
    products: withCardStock(
      products.map(({ key, id, brand, title, priceCents, image }) => ({ key, id, brand, title, priceCents, image })),
      levels,
    ),
    rows: onlyDifferences ? rows.filter((row) => row.differs) : rows,
    hiddenRows: onlyDifferences ? rows.filter((row) => !row.differs).length : 0,
    differingRows: rows.filter((row) => row.differs).length,
    onlyDifferences,
    adding: adding && products.length >= MAX_COMPARE ? { key: adding.key, title: adding.title } : null,
    list: products.map((product) => product.key),
  };
}

/** Add, remove, replace, clear. A document post is redirected to the comparison; a fetcher post gets the outcome. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const outcome = await applyCompareChange(context.store.db, await readCompareList(context.store, request), parseCompareForm(form));
  const headers = { "Set-Cookie": await compareCookieHeader(context.store, request, outcome.list) };
  const target = outcome.ok
    ? comparePath(outcome.list)
    : outcome.full
      ? comparePath(outcome.list, { add: outcome.adding })
      : comparePath(outcome.list);
  if (form.mode === "fetch") {
    const body = outcome.ok
      ? { ok: true as const, count: outcome.list.length, compareUrl: target }
      : outcome.full
        ? { ok: false as const, full: true as const, compareUrl: target }
        : { ok: false as const, full: false as const, message: outcome.message };
    return data(body, { headers, status: outcome.ok || outcome.full ? 200 : 400 });
  }
  return redirect(target, { headers, status: 303 });
}

export default function ComparePage() {
  const { products, rows, hiddenRows, differingRows, onlyDifferences, adding, list } = useLoaderData<typeof loader>();
  return (
    <div className="container guide compare">
      <CompareMirror list={list} />
      <h1>Compare products</h1>
      {adding ? <ReplaceChooser adding={adding} products={products} list={list} /> : null}
      {products.length === 0 ? (
        <div className="empty-state">
          <p className="empty-state__title">Nothing to compare yet.</p>
          <p>
            Press <strong>Compare</strong> on up to {MAX_COMPARE} products, then come back here. Or start with{" "}
            <SiteLink to="/products/all/Built-In%20Gas%20Grills">built-in gas grills</SiteLink>.
          </p>
        </div>
      ) : (
        <>
          <p>
            {products.length === 1
              ? "Add another product to compare it with."
              : `${differingRows} ${differingRows === 1 ? "specification differs" : "specifications differ"}; rows that differ are marked “Differs”.`}{" "}
            {onlyDifferences ? (
              <SiteLink to={comparePath(list)}>Show all specifications{hiddenRows > 0 ? ` (${hiddenRows} more)` : ""}</SiteLink>
            ) : products.length > 1 ? (
              <SiteLink to={comparePath(list, { only: "differences" })}>Show only differences</SiteLink>
            ) : null}
          </p>
          <div className="compare-table__scroll" tabIndex={0} role="region" aria-labelledby="compare-caption">
            <table className="compare-table">
              <caption id="compare-caption">
                {products.length === 1 ? "One product" : `${products.length} products side by side`}
                {onlyDifferences ? ", only the specifications that differ" : ""}
              </caption>
              <thead>
                <tr>
                  <td />
                  {products.map((product) => (
                    <th key={product.key} scope="col">
                      <ProductImage src={product.image} alt="" width={160} height={160} />
                      <SiteLink to={productPath(product)}>{product.title}</SiteLink>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Price</th>
                  {products.map((product) => (
                    <td key={product.key}>
                      <span className="price">{formatUsd(product.priceCents)}</span>
                      <FinancingLine priceCents={product.priceCents} />
                    </td>
                  ))}
                </tr>
                <tr>
                  <th scope="row">Brand</th>
                  {products.map((product) => (
                    <td key={product.key}>{brandDisplayName(product.brand)}</td>
                  ))}
                </tr>
                <tr>
                  <th scope="row">
                    <span className="visually-hidden">Buy or remove</span>
                  </th>
                  {products.map((product) => (
                    <td key={product.key} className="compare-table__actions">
                      {product.stock ? (
                        <p className={product.soldOut ? "product-card__warehouse product-card__warehouse--out" : "product-card__warehouse"}>
                          {product.stock}
                        </p>
                      ) : null}
                      {product.soldOut ? null : <AddToCartButton productKey={product.key} />}
                      <Form discover="none" method="post" action="/compare">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="productKey" value={product.key} />
                        <input type="hidden" name="items" value={list.join(",")} />
                        <button type="submit" className="link-button">
                          Remove<span className="visually-hidden"> {product.title}</span>
                        </button>
                      </Form>
                    </td>
                  ))}
                </tr>
                {rows.map((row) => (
                  <tr key={row.name} className={row.differs ? "compare-table__differs" : undefined}>
                    <th scope="row">
                      {row.name}
                      {row.differs ? <span className="compare-table__mark"> Differs</span> : null}
                    </th>
                    {row.values.map((value, index) => (
                      <td key={products[index].key}>{value ?? <span aria-label="not listed">—</span>}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Form discover="none" method="post" action="/compare" className="compare__clear">
            <input type="hidden" name="intent" value="clear" />
            <button type="submit" className="button button--small">
              Clear the comparison
            </button>
          </Form>
        </>
      )}
    </div>
  );
}

/** A fifth product: one button per compared product, each replacing that one. */
function ReplaceChooser({
  adding,
  products,
  list,
}: {
  adding: { key: string; title: string };
  products: Array<{ key: string; title: string }>;
  list: string[];
}) {
  return (
    <Form discover="none" method="post" action="/compare" className="notice notice--info compare__replace">
      <h2 id="replace-heading">
        You can compare up to {MAX_COMPARE} products. Which one should “{adding.title}” replace?
      </h2>
      <input type="hidden" name="intent" value="replace" />
      <input type="hidden" name="productKey" value={adding.key} />
      <input type="hidden" name="items" value={list.join(",")} />
      <ul>
        {products.map((product) => (
          <li key={product.key}>
            <button type="submit" name="replaces" value={product.key} className="button button--small">
              Replace {product.title}
            </button>
          </li>
        ))}
      </ul>
      <p>
        <SiteLink to={comparePath(list)}>Keep the comparison as it is</SiteLink>
      </p>
    </Form>
  );
}

/**
 * Keeps localStorage["compare"] equal to the list shown (like the cart's mirror). When this
 * browser has no list on the server but remembers one, /compare opens it.
 */
function CompareMirror({ list }: { list: string[] }) {
  const navigate = useNavigate();
  useEffect(() => {
    try {
      if (list.length > 0) {
        window.localStorage.setItem(COMPARE_STORAGE_KEY, JSON.stringify(list));
        return;
      }
      const remembered: unknown = JSON.parse(window.localStorage.getItem(COMPARE_STORAGE_KEY) ?? "[]");
      if (window.location.search === "" && Array.isArray(remembered) && remembered.length > 0) {
        navigate(comparePath(remembered.filter((key): key is string => typeof key === "string")), { replace: true });
      }
    } catch {
      // Storage may be disabled; the cookie and the address still hold the list.
    }
  }, [list, navigate]);
  return null;
}
