export { default, loader, meta } from "./order-status._index";
