import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { PolicyPage, policyMeta } from "~/components/PolicyPage";
import { DEFECTIVE_PRODUCT_POLICY } from "~/content/policies";
import contentStyles from "~/styles/content.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export const meta: MetaFunction = ({ matches }) => policyMeta(DEFECTIVE_PRODUCT_POLICY, matches);

export default function DefectiveProductPage() {
  return <PolicyPage policy={DEFECTIVE_PRODUCT_POLICY} />;
}
