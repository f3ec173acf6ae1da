import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { brandDisplayName, DISPLAYED_BRANDS, ProductImage, formatUsd, productPath, SiteLink } from "~/components/shared";
import { formatInches } from "~/catalog/spec-values";
import { GuideField, GuideSelect } from "~/components/guides/GuideField";
import { describeGap, FIT_TYPES, fitRuleText, FUEL_TYPES, GAP_CHOICES, parseFitSearch } from "~/guides/fit";
import { cachedFindByCutout } from "~/guides/fit.server";
import guideStyles from "~/styles/guides.css";
import { publicBaseUrl } from "~/config.server";
import { catalogueHeaders } from "~/utils/cache-control.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: guideStyles }];

/** The same answer for everyone who opens the same address (no cookie is read): a catalogue page. */
export const headers: HeadersFunction = catalogueHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const form = parseFitSearch(new URL(request.url).searchParams);
  const hasErrors = Object.keys(form.errors).length > 0;
  const answer = form.submitted && !hasErrors ? await cachedFindByCutout(context.store.db, form.query) : null;
  return { form, answer, origin: publicBaseUrl(context.store.config) };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Find by cutout: built-in grills and cabinets that fit your opening" },
  {
    name: "description",
    content:
      "Enter the width, depth and height of your outdoor kitchen opening and see the built-in grills, burners and doors that fit it.",
  },
  ...(data ? [{ tagName: "link", rel: "canonical", href: `${data.origin}/fit` }] : []),
];

const inches = (value: number) => `${formatInches(value)} in`;

export default function FitPage() {
  const { form, answer } = useLoaderData<typeof loader>();
  const { values, errors, query } = form;
  return (
    <div className="container guide">
      <h1>Find by cutout</h1>
      <p className="guide__intro">
        Measure the opening in your island or cabinet (width side to side, depth front to back, height from the countertop down) and we list
        the built-in products whose required cutout fits it, snuggest first. Or name the grill you have now, and we use its cutout.
      </p>
      <Form discover="none" method="get" action="/fit" className="guide-form">
        <fieldset>
          <legend>Your opening, in inches</legend>
          <GuideField name="width" label="Width" value={values.width} error={errors.width} hint="e.g. 30 or 30 1/4" />
          <GuideField name="depth" label="Depth" value={values.depth} error={errors.depth} />
          <GuideField name="height" label="Height (optional)" value={values.height} error={errors.height} />
        </fieldset>
        <fieldset>
          <legend>Or the grill you have</legend>
          <GuideField name="grill" label="Model number or name" value={values.grill} inputMode="text" hint="e.g. BLZ-5LTE2-LP" />
        </fieldset>
        <fieldset>
          <legend>What to show</legend>
          <GuideSelect
            name="type"
            label="Product type"
            value={query.type}
            options={Object.entries(FIT_TYPES).map(([value, type]) => ({ value, label: type.label }))}
          />
          <GuideSelect
            name="gap"
            label="Largest gap the frame may cover"
            value={String(query.gap)}
            options={GAP_CHOICES.map((gap) => ({ value: String(gap), label: `${formatInches(gap)} in` }))}
          />
          <GuideSelect
            name="brand"
            label="Brand"
            value={query.brand}
            options={[
              { value: "", label: "Any brand" },
              ...DISPLAYED_BRANDS.map((brand) => ({ value: brand, label: brandDisplayName(brand) })),
            ]}
          />
          <GuideSelect
            name="fuel"
            label="Fuel type"
            value={query.fuel}
            options={[{ value: "", label: "Any fuel" }, ...FUEL_TYPES.map((fuel) => ({ value: fuel, label: fuel }))]}
          />
          <GuideField name="min" label="Lowest price ($)" value={values.min} error={errors.min} inputMode="numeric" />
          <GuideField name="max" label="Highest price ($)" value={values.max} error={errors.max} inputMode="numeric" />
        </fieldset>
        <p>
          <button type="submit" className="button button--primary">
            Find what fits
          </button>
        </p>
      </Form>
      <p className="guide-rule">{fitRuleText(query.gap)}</p>
      {answer ? <FitResults answer={answer} /> : null}
    </div>
  );
}

function FitResults({ answer }: { answer: NonNullable<Awaited<ReturnType<typeof loader>>["answer"]> }) {
  const { opening, picked, suggestions, results, total } = answer;
  return (
    <section aria-labelledby="fit-results-heading">
      <h2 id="fit-results-heading">
        {opening
          ? `${total === 1 ? "1 product fits" : `${total} products fit`} a ${inches(opening.width)} × ${inches(opening.depth)}${
              opening.height !== null ? ` × ${inches(opening.height)}` : ""
            } opening`
          : "Which grill do you have?"}
      </h2>
      {picked ? (
        <p>
          Using the cutout of <SiteLink to={productPath(picked)}>{picked.title}</SiteLink>
          {picked.cutout ? "." : ", which lists no cutout: enter your opening's measurements instead."}
        </p>
      ) : null}
      {suggestions.length > 0 ? (
        <>
          <p>No product has exactly that model number. Did you mean one of these?</p>
          <ul>
            {suggestions.map((suggestion) => (
              <li key={suggestion.key}>
                <SiteLink to={`/fit?grill=${encodeURIComponent(suggestion.key)}`}>{suggestion.title}</SiteLink>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {!opening && !picked && suggestions.length === 0 ? <p>We found no product by that model number or name.</p> : null}
      {opening && results.length === 0 ? (
        <p>Nothing fits that opening with these filters. Try a larger gap, another product type, or fewer filters.</p>
      ) : null}
      {results.length > 0 ? (
        <ol className="guide-results">
          {results.map((product) => (
            <li key={product.key} className="guide-result">
              <ProductImage src={product.image} alt="" width={200} height={200} />
              <h3 className="guide-result__title">
                <SiteLink to={productPath(product)}>{product.title}</SiteLink>
              </h3>
              <p className="price">{formatUsd(product.priceCents)}</p>
              <dl>
                <dt>Cutout</dt>
                <dd>
                  {inches(product.cutout.width)} W × {inches(product.cutout.depth)} D
                  {product.cutout.height !== null ? ` × ${inches(product.cutout.height)} H` : " (no height listed)"}
                </dd>
                {opening ? (
                  <>
                    <dt>Width</dt>
                    <dd>{describeGap(opening.width, product.cutout.width)}</dd>
                    <dt>Depth</dt>
                    <dd>{describeGap(opening.depth, product.cutout.depth)}</dd>
                  </>
                ) : null}
                {product.fuelType ? (
                  <>
                    <dt>Fuel</dt>
                    <dd>{product.fuelType}</dd>
                  </>
                ) : null}
              </dl>
            </li>
          ))}
        </ol>
      ) : null}
      {total > results.length ? <p>Showing the {results.length} snuggest. Narrow the filters to see others.</p> : null}
    </section>
  );
}
