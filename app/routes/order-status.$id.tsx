export { default, handle, loader, meta } from "./order-status._index";
