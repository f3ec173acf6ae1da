import { defineConfig } from "drizzle-kit";

// Migrations are generated here and applied by the app itself (app/db/migrate.server.ts),
// on PGlite and PostgreSQL alike; `drizzle-kit migrate` is not used.
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/schema.ts",
  out: "./drizzle",
});
