export * from "./normalize";
export * from "./category";
export * from "./pipeline";
