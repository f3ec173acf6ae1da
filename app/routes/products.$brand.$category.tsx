import {
  cachedListProducts,
  brandCategories,
  cardList,
  isAllCategories,
  catalogueHeaders,
  publicBaseUrl,
  stockLevels,
  withCardStock,
} from "~/server-api";
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigate } from "@remix-run/react";
import {
  brandDisplayName,
  DISPLAYED_BRANDS,
  isBrandKey,
  categoryPath,
  ChatLink,
  CARD_IMAGE_SIZES,
  picturePreload,
  telHref,
  useHydrated,
  useStore,
  SiteLink,
} from "~/components/shared";
import { Pagination, ProductGrid } from "~/components/ProductCard";

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const brand = params.brand ?? "all";
  const category = isAllCategories(params.category ?? "all") ? "all" : (params.category as string);
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const db = context.store.db;
  const [list, categories] = await Promise.all([cachedListProducts(db, { brand, category, page }), brandCategories(db, brand)]);
  // Stock is read per request (never memoized with the list): one query for the page's cards.
  const levels = await stockLevels(
    db,
    list.products.map((product) => product.key),
  );
  return {
    brand,
    category,
    list: { ...list, products: withCardStock(cardList(list.products), levels) },
    categories,
    origin: publicBaseUrl(context.store.config),
  };
}

export const headers: HeadersFunction = catalogueHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Products" }];
  const brand = data.brand === "all" ? "All Brands" : brandDisplayName(data.brand);
  const category = data.category === "all" ? "All Categories" : data.category;
  const title = `${category} from ${brand}`;
  return [
    { title },
    { name: "description", content: `Shop ${data.list.total} ${category.toLowerCase()} from ${brand}. Free shipping over $49.` },
    {
      tagName: "link",
      rel: "canonical",
      href: `${data.origin}${categoryPath(data.category, data.brand)}${data.list.page > 1 ? `?page=${data.list.page}` : ""}`,
    },
    ...(data.list.products[0] ? [picturePreload(data.list.products[0].image, CARD_IMAGE_SIZES)] : []),
  ];
};

export default function ProductList() {
  const { brand, category, list, categories } = useLoaderData<typeof loader>();
  const pageHref = (page: number) => `${categoryPath(category, brand)}${page > 1 ? `?page=${page}` : ""}`;
  return (
    <div className="container product-list">
      <aside className="product-list__sidebar" aria-labelledby="categories-heading">
        <h2 id="categories-heading">Categories</h2>
        <ul className="category-buttons">
          {categories.map((choice) => (
            <li key={choice.value}>
              <SiteLink
                to={categoryPath(choice.value, brand)}
                className={choice.value === category ? "category-button is-active" : "category-button"}
                aria-current={choice.value === category ? "page" : undefined}
              >
                {choice.label}
              </SiteLink>
            </li>
          ))}
        </ul>
        <AskAnExpert />
      </aside>
      <section className="product-list__main" aria-labelledby="product-list-heading">
        <h1 id="product-list-heading">Product List</h1>
        <div className="product-list__filters">
          <BrandDropdown brand={brand} />
          <CategoryDropdown brand={brand} category={category} categories={categories} />
        </div>
        {showsFitFinder(category) ? (
          <p className="notice notice--info">
            Building an outdoor kitchen? <SiteLink to="/fit">Find by cutout</SiteLink>: enter your opening and see what fits it.
          </p>
        ) : null}
        {/heater|heating/i.test(category) ? (
          <p className="notice notice--info">
            How much heat does your patio need? <SiteLink to="/heater-helper">Patio heater size helper</SiteLink>
          </p>
        ) : /grills/i.test(category) ? (
          <p className="notice notice--info">
            How big a grill do you need? <SiteLink to="/grill-helper">Grill size helper</SiteLink>
          </p>
        ) : null}
        <p className="product-list__count" aria-live="polite">
          {list.total === 1 ? "1 product" : `${list.total} products`}
          {list.pageCount > 1 ? ` · page ${list.page} of ${list.pageCount}` : ""}
        </p>
        {list.products.length === 0 ? (
          <div className="empty-state">
            <p className="empty-state__title">No products match this brand and category.</p>
            <p>Try another category, or browse everything we carry.</p>
            <p className="empty-state__actions">
              {brand !== "all" ? (
                <SiteLink className="button" to={categoryPath("all", brand)}>
                  All {brandDisplayName(brand)} products
                </SiteLink>
              ) : null}
              <SiteLink className="button button--primary" to="/products/all/all">
                View all products
              </SiteLink>
            </p>
          </div>
        ) : (
          <ProductGrid products={list.products} label="Products" />
        )}
        <Pagination page={list.page} pageCount={list.pageCount} hrefFor={pageHref} />
      </section>
    </div>
  );
}

/** Built-in grill and cabinet categories link to the cutout finder (/fit). */
function showsFitFinder(category: string): boolean {
  return /built-in|cabinet|doors & drawers|access doors|storage drawers|outdoor kitchens$|side burners|refrigerat/i.test(category);
}

/** A GET form: without script its button submits; with script a change navigates at once. */
function BrandDropdown({ brand }: { brand: string }) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  return (
    <Form discover="none" method="get" action="/products" className="filter-form">
      <label htmlFor="brand-filter">Brand</label>
      <select
        id="brand-filter"
        name="brand"
        defaultValue={brand}
        key={brand}
        onChange={(event) => navigate(categoryPath("all", event.currentTarget.value))}
      >
        <option value="all">All Brands</option>
        {brandOptions(brand).map((key) => (
          <option key={key} value={key}>
            {brandDisplayName(key)}
          </option>
        ))}
      </select>
      <button type="submit" className={hydrated ? "visually-hidden" : "button button--small"}>
        Show
      </button>
    </Form>
  );
}

/** The 20 displayed brands, plus the current one when it is a brand the list does not display (Breeo), so the dropdown always shows it. */
function brandOptions(brand: string): readonly string[] {
  if (brand === "all" || (DISPLAYED_BRANDS as readonly string[]).includes(brand)) return DISPLAYED_BRANDS;
  return isBrandKey(brand) ? [...DISPLAYED_BRANDS, brand] : DISPLAYED_BRANDS;
}

function CategoryDropdown({
  brand,
  category,
  categories,
}: {
  brand: string;
  category: string;
  categories: { value: string; label: string }[];
}) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  return (
    <Form discover="none" method="get" action="/products" className="filter-form filter-form--category">
      <input type="hidden" name="brand" value={brand} />
      <label htmlFor="category-filter">Category</label>
      <select
        id="category-filter"
        name="category"
        defaultValue={category}
        key={`${brand}-${category}`}
        onChange={(event) => navigate(categoryPath(event.currentTarget.value, brand))}
      >
        {categories.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <button type="submit" className={hydrated ? "visually-hidden" : "button button--small"}>
        Show
      </button>
    </Form>
  );
}

function AskAnExpert() {
  const phone = useStore().storePhone;
  return (
    <div className="ask-expert">
      <h2>Ask an Expert</h2>
      <p>Our outdoor kitchen specialists can help you choose.</p>
      <ul>
        <li>
          <a href={telHref(phone)}>{phone}</a>
        </li>
        <li>
          <ChatLink>Live Chat</ChatLink>
        </li>
        <li>
          <SiteLink to="/contact">Email an Expert</SiteLink>
        </li>
      </ul>
    </div>
  );
}
