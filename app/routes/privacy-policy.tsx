import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { PolicyPage, policyMeta } from "~/components/PolicyPage";
import { PRIVACY_POLICY } from "~/content/policies";
import contentStyles from "~/styles/content.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export const meta: MetaFunction = ({ matches }) => policyMeta(PRIVACY_POLICY, matches);

export default function PrivacyPolicyPage() {
  return <PolicyPage policy={PRIVACY_POLICY} />;
}
