import { SiteLink } from "~/components/shared";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatSpecValue } from "~/catalog/spec-values";
import { GuideField, GuideSelect } from "~/components/guides/GuideField";
import { GuideResults } from "~/components/guides/GuideResults";
import { FUEL_TYPES } from "~/guides/fit";
import { HOSTING_LABELS, parseGrillSearch, type Hosting } from "~/guides/sizing";
import { grillsFor } from "~/guides/sizing.server";
import guideStyles from "~/styles/guides.css";
import { formatNumber } from "~/utils/number-format";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: guideStyles }];

export const meta: MetaFunction = () => [
  { title: "Grill size helper: how much grilling area you need" },
  {
    name: "description",
    content: "Tell us how many people you cook for and how often you host; see the grilling area you need and the grills that have it.",
  },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const form = parseGrillSearch(new URL(request.url).searchParams);
  const fuel = (FUEL_TYPES as readonly string[]).includes(form.values.fuel) ? form.values.fuel : "";
  const found = form.need ? await grillsFor(context.store.db, form.need, fuel) : { grills: [], total: 0 };
  return { form, fuel, ...found };
}

export default function GrillHelper() {
  const { form, fuel, grills, total } = useLoaderData<typeof loader>();
  const { values, errors, need } = form;
  return (
    <div className="container guide">
      <h1>Grill size helper</h1>
      <p className="guide__intro">
        How big a grill do you need? Tell us who you cook for; we recommend a grilling area and burger count and list the grills that have
        them. Also see the <SiteLink to="/heater-helper">patio heater size helper</SiteLink> and{" "}
        <SiteLink to="/fit">find by cutout</SiteLink>.
      </p>
      <Form discover="none" method="get" action="/grill-helper" className="guide-form">
        <fieldset>
          <legend>Your cooking</legend>
          <GuideField name="people" label="People you usually cook for" value={values.people} error={errors.people} inputMode="numeric" />
          <GuideSelect
            name="hosting"
            label="How often you host"
            value={values.hosting in HOSTING_LABELS ? values.hosting : "rarely"}
            options={(Object.keys(HOSTING_LABELS) as Hosting[]).map((value) => ({ value, label: HOSTING_LABELS[value] }))}
          />
          <GuideSelect
            name="fuel"
            label="Fuel type"
            value={fuel}
            options={[{ value: "", label: "Any fuel" }, ...FUEL_TYPES.map((value) => ({ value, label: value }))]}
          />
        </fieldset>
        <p>
          <button type="submit" className="button button--primary">
            Size my grill
          </button>
        </p>
      </Form>
      {need ? (
        <section aria-labelledby="grill-need-heading">
          <h2 id="grill-need-heading">
            You need at least {formatNumber(need.areaSqIn)} sq in, room for {need.burgers} burgers
          </h2>
          <p className="guide-rule">How we worked it out: {need.rule}</p>
          <p>{total === 1 ? "1 grill meets it" : `${total} grills meet it`}; the smallest that do come first.</p>
          <GuideResults
            label="Grills that meet it"
            products={grills}
            facts={(grill) => [
              ["Main grilling area", formatSpecValue("mainGrillingArea", grill.specValues.mainGrillingArea ?? 0)],
              ...(grill.specValues.burgerCount ? [["Burger count", String(grill.specValues.burgerCount)] as [string, string]] : []),
              ...(grill.specValues.fuelType ? [["Fuel", grill.specValues.fuelType] as [string, string]] : []),
            ]}
          />
        </section>
      ) : null}
    </div>
  );
}
