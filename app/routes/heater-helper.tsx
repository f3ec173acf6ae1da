import { SiteLink } from "~/components/shared";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { formatSpecValue } from "~/catalog/spec-values";
import { GuideField, GuideSelect } from "~/components/guides/GuideField";
import { GuideResults } from "~/components/guides/GuideResults";
import { CLIMATE_LABELS, parseHeaterSearch, type Climate } from "~/guides/sizing";
import { heatersFor } from "~/guides/sizing.server";
import guideStyles from "~/styles/guides.css";
import { formatNumber } from "~/utils/number-format";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: guideStyles }];

export const meta: MetaFunction = () => [
  { title: "Patio heater size helper: how many BTU or watts your patio needs" },
  {
    name: "description",
    content: "Enter your patio's size, whether it is covered and your climate, and see the heat it needs and the heaters that give it.",
  },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const form = parseHeaterSearch(new URL(request.url).searchParams);
  const heaters = form.need ? await heatersFor(context.store.db, form.need) : [];
  return { form, heaters };
}

export default function HeaterHelper() {
  const { form, heaters } = useLoaderData<typeof loader>();
  const { values, errors, need } = form;
  return (
    <div className="container guide">
      <h1>Patio heater size helper</h1>
      <p className="guide__intro">
        Tell us about your patio and we work out how much heat it needs, then list the heaters that give it (and how many of each). Also see
        the <SiteLink to="/grill-helper">grill size helper</SiteLink> and <SiteLink to="/fit">find by cutout</SiteLink>.
      </p>
      <Form discover="none" method="get" action="/heater-helper" className="guide-form">
        <fieldset>
          <legend>Your patio</legend>
          <GuideField name="area" label="Area (sq ft)" value={values.area} error={errors.area} inputMode="numeric" />
          <GuideField name="length" label="Or length (ft)" value={values.length} />
          <GuideField name="width" label="and width (ft)" value={values.width} />
          <GuideSelect
            name="covered"
            label="Roof"
            value={values.covered === "open" ? "open" : "covered"}
            options={[
              { value: "covered", label: "Covered (roof or pergola cover)" },
              { value: "open", label: "Open to the sky" },
            ]}
          />
          <GuideSelect
            name="climate"
            label="Climate"
            value={values.climate in CLIMATE_LABELS ? values.climate : "moderate"}
            options={(Object.keys(CLIMATE_LABELS) as Climate[]).map((value) => ({ value, label: CLIMATE_LABELS[value] }))}
          />
        </fieldset>
        <p>
          <button type="submit" className="button button--primary">
            Size my heater
          </button>
        </p>
      </Form>
      {need ? (
        <section aria-labelledby="heater-need-heading">
          <h2 id="heater-need-heading">
            Your patio needs about {formatNumber(need.watts)} W or {formatNumber(need.btu)} BTU
          </h2>
          <p className="guide-rule">How we worked it out: {need.rule}</p>
          {heaters.length === 0 ? (
            <p>No heater in the catalogue lists its output.</p>
          ) : (
            <GuideResults
              label="Heaters for your patio"
              products={heaters}
              facts={(heater) => [
                [
                  "Output",
                  heater.specValues.watts
                    ? formatSpecValue("watts", heater.specValues.watts)
                    : formatSpecValue("btu", heater.specValues.btu ?? 0),
                ],
                ["You need", heater.count === 1 ? "1 heater" : `${heater.count} heaters`],
                ...(heater.specValues.fuelType ? [["Fuel", heater.specValues.fuelType] as [string, string]] : []),
              ]}
            />
          )}
        </section>
      ) : null}
    </div>
  );
}
