import { useRouteLoaderData } from "@remix-run/react";
import type { PublicConfig } from "~/public-config.server";

type RootData = { store: PublicConfig };

/** The store's public facts (name, phone, email, public keys) from the root loader. */
export function useStore(): PublicConfig {
  const root = useRouteLoaderData<RootData>("root");
  if (!root) throw new Error("useStore() needs the root loader's data");
  return root.store;
}
