import type { MetaDescriptor } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import type { Policy, PolicyBlock } from "~/content/policies";
import type { RootLoaderData } from "~/root";
import { telHref, SiteLink } from "~/components/shared";

type MetaMatch = { id: string; data: unknown };

/** Title and description of a policy page, with the store's name from the root loader. */
export function policyMeta(policy: Policy, matches: MetaMatch[]): MetaDescriptor[] {
  const store = (matches.find((match) => match.id === "root")?.data as RootLoaderData | undefined)?.store;
  return [
    { title: `${policy.title} | ${store?.storeName ?? "Outdoor Kitchen Outlet"}` },
    { name: "description", content: policy.description },
  ];
}

function Block({ block }: { block: PolicyBlock }) {
  if ("list" in block) {
    return (
      <ul>
        {block.list.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    );
  }
  return <p>{block.paragraph}</p>;
}

export function PolicyPage({ policy }: { policy: Policy }) {
  const store = useRouteLoaderData<RootLoaderData>("root")?.store;
  return (
    <article className="container content-page policy-page" aria-labelledby="policy-title">
      <h1 id="policy-title">{policy.title}</h1>
      <p className="content-page__lead">{policy.intro}</p>
      {policy.sections.map((section) => (
        <section key={section.heading} className="policy-page__section">
          <h2>{section.heading}</h2>
          {section.blocks.map((block, index) => (
            <Block key={index} block={block} />
          ))}
          {section.contact && store ? (
            <p className="policy-page__contact">
              Sales phone: <a href={telHref(store.storePhone)}>{store.storePhone}</a>
              <br />
              Sales email: <a href={`mailto:${store.storeEmail}`}>{store.storeEmail}</a>
            </p>
          ) : null}
          {section.action ? (
            <p>
              <SiteLink className="button button--primary" to={section.action.to}>
                {section.action.label}
              </SiteLink>
            </p>
          ) : null}
        </section>
      ))}
      <nav className="policy-page__others" aria-label="Other store policies">
        <h2>Other policies</h2>
        <ul>
          {OTHER_LINKS.filter((link) => link.to !== `/${policy.slug}`).map((link) => (
            <li key={link.to}>
              <SiteLink to={link.to}>{link.label}</SiteLink>
            </li>
          ))}
        </ul>
      </nav>
    </article>
  );
}

const OTHER_LINKS = [
  { label: "Privacy Policy", to: "/privacy-policy" },
  { label: "Shipping Policy", to: "/shipping-policy" },
  { label: "Return Policy", to: "/return-policy" },
  { label: "Defective Product Policy", to: "/defective-product" },
];
