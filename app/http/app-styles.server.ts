import { readFileSync } from "node:fs";
import path from "node:path";
import { APP_STYLES_HREF } from "./app-styles";

let text: string | null | undefined;

/**
 * The style sheet's text from the client build (`public` + its URL), read once. Null where the file is
 * missing (a test app without a client build) or could end the `<style>` element early: the page then
 * links to the sheet.
 */
export function appStylesText(): string | null {
  if (text !== undefined) return text;
  try {
    const css = readFileSync(path.resolve("public", `.${APP_STYLES_HREF}`), "utf8");
    text = /<\/style/i.test(css) ? null : css;
  } catch {
    text = null;
  }
  return text;
}
