export * from "./normalise";
export * from "./category";
export * from "./pipeline";
