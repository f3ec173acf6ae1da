import { deferred } from "./shared";

/** The "as low as" line (FinancingLine.tsx) is plain text first; its script, which brings Affirm's promotion, loads once the page is idle. */
export const FinancingLine = deferred(() => import("./FinancingLine").then((module) => module.FinancingLine), { until: "idle" });
