import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { PolicyPage, policyMeta } from "~/components/PolicyPage";
import { RETURN_POLICY } from "~/content/policies";
import contentStyles from "~/styles/content.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export const meta: MetaFunction = ({ matches }) => policyMeta(RETURN_POLICY, matches);

export default function ReturnPolicyPage() {
  return <PolicyPage policy={RETURN_POLICY} />;
}
