import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { searchProducts } from "~/catalog/queries.server";
import { productPath } from "~/catalog/store-product";
import { getDb } from "~/runtime.server";
import contentStyles from "~/styles/content.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export const meta: MetaFunction = () => [
  { title: "Search test" },
  { name: "description", content: "A small page for trying the product search." },
  { name: "robots", content: "noindex" },
];

const MAX_QUERY_LENGTH = 200;

export async function loader({ request }: LoaderFunctionArgs) {
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  if (!query) return { query, results: [], total: 0, failed: false };
  try {
    const found = await searchProducts(await getDb(), query);
    return {
      query,
      results: found.products.map((product) => ({ key: product.key, title: product.title, href: productPath(product) })),
      total: found.total,
      failed: false,
    };
  } catch (error) {
    console.error("Search test failed", error);
    return { query, results: [], total: 0, failed: true };
  }
}

export default function SearchTestPage() {
  const { query, results, total, failed } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/test";
  return (
    <div className="container content-page search-test">
      <h1>Search test</h1>
      <Form method="get" action="/test" role="search" className="search-test__form">
        <label htmlFor="search-test-q">Words to search for</label>
        <div className="search-test__row">
          <input id="search-test-q" type="search" name="q" defaultValue={query} maxLength={MAX_QUERY_LENGTH} key={query} />
          <button type="submit" className="button button--primary">
            Search
          </button>
        </div>
      </Form>
      <div aria-live="polite" aria-busy={searching}>
        {failed ? (
          <p className="form-error">Search is unavailable right now. Please try again.</p>
        ) : query ? (
          <>
            <h2>
              {total === 1 ? "1 product" : `${total} products`} matching “{query}”
            </h2>
            {results.length > 0 ? (
              <ul className="search-test__results">
                {results.map((result) => (
                  <li key={result.key}>
                    <Link to={result.href}>{result.title}</Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No products match your search.</p>
            )}
          </>
        ) : (
          <p>Type a word or two from a product title, then press Search.</p>
        )}
      </div>
    </div>
  );
}
