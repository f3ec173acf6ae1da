import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { PolicyPage, policyMeta } from "~/components/PolicyPage";
import { SHIPPING_POLICY } from "~/content/policies";
import contentStyles from "~/styles/content.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export const meta: MetaFunction = ({ matches }) => policyMeta(SHIPPING_POLICY, matches);

export default function ShippingPolicyPage() {
  return <PolicyPage policy={SHIPPING_POLICY} />;
}
