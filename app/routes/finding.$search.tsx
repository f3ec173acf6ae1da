import { cachedSearchProducts, cardList, catalogueHeaders, stockLevels, withCardStock } from "~/server-api";
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CARD_IMAGE_SIZES, picturePreload, SiteLink } from "~/components/shared";
import { Pagination, ProductGrid } from "~/components/ProductCard";
import type { RouteHandle } from "~/root";

const MAX_QUERY_LENGTH = 100;

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const query = (params.search ?? "").slice(0, MAX_QUERY_LENGTH);
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const results = await cachedSearchProducts(context.store.db, query, { page });
  // Stock is read per request (never memoized with the results): one query for the page's cards.
  const levels = await stockLevels(
    context.store.db,
    results.products.map((product) => product.key),
  );
  return { query, results: { ...results, products: withCardStock(cardList(results.products), levels) } };
}

export const headers: HeadersFunction = catalogueHeaders;

export const handle: RouteHandle = { indexing: "private, follow" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Search results for "${data.query}"` : "Search results" },
  ...(data?.results.products[0] ? [picturePreload(data.results.products[0].image, CARD_IMAGE_SIZES)] : []),
];

export default function SearchResults() {
  const { query, results } = useLoaderData<typeof loader>();
  const pageHref = (page: number) => `/finding/${encodeURIComponent(query)}${page > 1 ? `?page=${page}` : ""}`;
  return (
    <div className="container search-results">
      <h1>Showing Results</h1>
      <p aria-live="polite">
        {results.total === 1 ? "1 product matches" : `${results.total} products match`} “{query}”.
      </p>
      {results.products.length === 0 ? (
        <div className="empty-state">
          <p className="empty-state__title">No products match your search.</p>
          <p>Check the spelling, use fewer words, or browse our catalog.</p>
          <SiteLink className="button button--primary" to="/products/all/all">
            View all products
          </SiteLink>
        </div>
      ) : (
        <ProductGrid products={results.products} label={`Results for ${query}`} />
      )}
      <Pagination page={results.page} pageCount={results.pageCount} hrefFor={pageHref} />
    </div>
  );
}
