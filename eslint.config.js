// Lint rules that hold the codebase's line: TypeScript's recommended checks,
// the rules of hooks, and accessible markup (jsx-a11y).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "public/build/", "data/", "node_modules/", "test-results/", "playwright-report/", ".cache/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // One log for the app and the server (app/http/logger.server.ts); scripts and tests print to the console on purpose.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Root's small shared modules reach the pages through app/components/shared.ts only, so esbuild puts them in
    // one chunk: imported one by one, each combination of importers became a script file of its own.
    files: ["app/root.tsx", "app/routes/**/*.tsx", "app/components/**/*.{ts,tsx}"],
    ignores: [
      "app/components/shared.ts",
      // The modules shared.ts gathers import each other directly (through shared.ts would be a circle). Nothing
      // else does: a part loaded on demand that imported one of them directly would move it out of the one chunk.
      "app/components/carousel/{index,interaction,options}.ts",
      "app/components/{ChatButton,deferred,icons,ProductImage,site-link}.{ts,tsx}",
      "app/components/layout/navigation.ts",
      "**/*.test.{ts,tsx}",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "~/catalog/brands",
                "~/contact/service-hours",
                "~/utils/format",
                "~/utils/use-hydrated",
                "~/utils/use-store",
                "~/catalog/store-product",
                "~/pricing/pricing",
                "~/components/carousel",
                "**/carousel",
                // The carousel's own files (loaded on demand) import these two by their file name.
                "**/carousel/interaction",
                "**/carousel/options",
                "./interaction",
                "./options",
                "**/ChatButton",
                "**/deferred",
                "**/icons",
                "**/layout/navigation",
                "**/markup-cache",
                "**/ProductImage",
                "**/site-link",
              ],
              message: "Import it from ~/components/shared (one chunk for what root shares with the pages).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrollable region must be focusable to be scrolled from the keyboard (axe: scrollable-region-focusable).
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["region"] }],
    },
  },
  {
    // requireOwner (app/staff/guard.server.ts) hands back the refusal for the action to answer with: a call
    // whose answer is dropped refuses nothing.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ExpressionStatement > CallExpression[callee.name='requireOwner'], ExpressionStatement > UnaryExpression > CallExpression[callee.name='requireOwner']",
          message: "requireOwner returns the refusal: `const refused = requireOwner(staff, action); if (refused) return reply(...)`.",
        },
      ],
    },
  },
);
