import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCatalogFiles } from "~/catalog/catalog-files.server";
import { loadCatalogIfChanged } from "~/catalog/load.server";
import { drawingUrl, imagePath, photoUrl, type PhotoFormat } from "~/catalog/image-url";
import { forgetPhotoIndexes, photoIndex } from "~/catalog/photos.server";
import { SharedCache } from "../../server/shared-cache";
import { expectErrorLog } from "../support/error-log";
import { createStoreHandler, type StoreHandler } from "../support/remix-handler";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { TEST_ORIGIN, testRuntime } from "../support/test-runtime";

/**
 * ADR 016 through the whole request handler: a product with a photo in PRODUCT_PHOTOS_DIR shows a
 * <picture> of AVIF and WebP at every width, resized on first request and kept on disk; one without
 * keeps its drawing; a photo address the store does not have is a 404, never a 500. An image answers
 * only at the address the store builds (any other spelling would be one more entry in every cache),
 * and a photo file that cannot be read is logged once and drawn instead.
 */

// Alfresco's ALXE 42-Inch grill head and the same grill on a deluxe cart (catalog/alfresco.json).
const WITH_PHOTOS = "2908730";
const WITHOUT_PHOTOS = "2911906";

describe("product photos with the drawing as the fallback", () => {
  let scratch = "";
  let photosDir = "";
  let cacheDir = "";
  let database: TestDatabase;
  let store: StoreHandler;

  const files = () => {
    const { products } = readCatalogFiles();
    return {
      products: products.filter((p) => p.brand === "alfresco" && [WITH_PHOTOS, WITHOUT_PHOTOS].includes(p.Id)),
      contentHash: "photos-test",
    };
  };

  async function useStore(env: Record<string, string>) {
    forgetPhotoIndexes();
    const runtime = testRuntime(database, env);
    await loadCatalogIfChanged(database.db, files(), { photos: await photoIndex(runtime.config.PRODUCT_PHOTOS_DIR) });
    store = await createStoreHandler(runtime);
  }

  function get(pathname: string) {
    return store.handle(new Request(`${TEST_ORIGIN}${pathname}`, { headers: { Host: new URL(TEST_ORIGIN).host } }));
  }

  /** The <picture>s and plain <img>s of a page's product cards, as the server rendered them. */
  async function cardPictures(pathname: string) {
    const html = await (await get(pathname)).text();
    return {
      pictures: [...html.matchAll(/<picture[^>]*>(.*?)<\/picture>/g)].map((match) => match[1] ?? ""),
      images: [...html.matchAll(/<img[^>]*class="product-card__image"[^>]*>/g)].map((match) => match[0]),
    };
  }

  /** The address of photo view n at its current version, as the store builds it. */
  async function currentPhoto(n: number, width: number, format: PhotoFormat) {
    const source = (await photoIndex(photosDir))?.products.get(`alfresco-${WITH_PHOTOS}`)?.find((photo) => photo.n === n);
    return photoUrl("alfresco", WITH_PHOTOS, n, source?.version ?? "", width, format);
  }

  const srcsetUrls = (picture: string, type: string) =>
    (new RegExp(`<source type="${type}" srcSet="([^"]+)"`).exec(picture)?.[1] ?? "").split(", ").map((entry) => entry.split(" ")[0] ?? "");

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), "store-photos-"));
    photosDir = path.join(scratch, "photos");
    cacheDir = path.join(scratch, "cache");
    // A tiny photo, made here: view 1 as a JPEG, view 2 as a PNG.
    mkdirSync(path.join(photosDir, "alfresco", WITH_PHOTOS), { recursive: true });
    const photo = sharp({ create: { width: 400, height: 300, channels: 3, background: "#b03a2e" } });
    await photo
      .clone()
      .jpeg()
      .toFile(path.join(photosDir, "alfresco", WITH_PHOTOS, "1.jpg"));
    await photo
      .clone()
      .png()
      .toFile(path.join(photosDir, "alfresco", WITH_PHOTOS, "2.png"));
    // View 3 as the operator might leave it: a file named .jpg that no decoder reads.
    writeFileSync(path.join(photosDir, "alfresco", WITH_PHOTOS, "3.jpg"), "not a photo");
    database = await createTestDatabase("pglite");
  });

  afterAll(async () => {
    forgetPhotoIndexes();
    await database?.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  describe("with a photo folder", () => {
    beforeAll(() => useStore({ PRODUCT_PHOTOS_DIR: photosDir, PRODUCT_PHOTOS_CACHE_DIR: cacheDir }));

    it("shows the photo as a <picture> of AVIF and WebP at every width, and the other product's drawing", async () => {
      const { pictures, images } = await cardPictures("/products/alfresco/all");
      expect(pictures).toHaveLength(1);
      const [picture] = pictures as [string];
      expect(picture).toMatch(/<source type="image\/avif" srcSet="[^"]+ 160w, [^"]+ 1280w" sizes="[^"]+"/);
      expect(picture).toMatch(/<source type="image\/webp" srcSet="[^"]+ 160w, [^"]+ 1280w" sizes="[^"]+"/);
      expect(picture).toMatch(new RegExp(`<img[^>]* src="/images/products/alfresco/${WITH_PHOTOS}/photo-1-[0-9a-f]{12}-640w\\.jpg"`));
      // The product without a photo keeps its drawing, as a plain <img>.
      expect(images.filter((img) => img.includes(`/images/products/alfresco/${WITHOUT_PHOTOS}/1.svg?v=2`))).toHaveLength(1);
    });

    it("answers each width and format resized, with its content type, cached for a year, and kept on disk", async () => {
      const { pictures } = await cardPictures("/products/alfresco/all");
      const avif = srcsetUrls(pictures[0] ?? "", "image/avif");
      const webp = srcsetUrls(pictures[0] ?? "", "image/webp");
      for (const [url, type, format, width] of [
        [avif[1], "image/avif", "heif", 320],
        [webp[0], "image/webp", "webp", 160],
        [webp[5], "image/webp", "webp", 400], // 1280 asked, the photo is 400 wide: never enlarged
      ] as const) {
        const response = await get(url ?? "");
        expect(response.status, url).toBe(200);
        expect(response.headers.get("Content-Type")).toBe(type);
        expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(Number(response.headers.get("Content-Length"))).toBe(bytes.length);
        const metadata = await sharp(bytes).metadata();
        expect([metadata.format, metadata.width]).toEqual([format, width]);
      }
      const kept = readdirSync(cacheDir, { recursive: true }).filter((name) => /\.(avif|webp)$/.test(String(name)));
      expect(kept).toHaveLength(3);
      // Asked again: read back from the disk, the same bytes.
      const again = await get(avif[1] ?? "");
      expect(again.status).toBe(200);
    });

    it("redirects an address with an older version to today's, which no cache keeps as an image", async () => {
      const response = await get(`/images/products/alfresco/${WITH_PHOTOS}/photo-2-000000000000-320w.webp`);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(await currentPhoto(2, 320, "webp"));
      expect(new SharedCache().storable(response.status, response.headers)).toBe(false);
    });

    it("answers a photo only at the address the store builds: every other spelling is a 404 no cache keeps", async () => {
      const canonical = await currentPhoto(1, 320, "avif");
      const version = /photo-1-([0-9a-f]{12})-/.exec(canonical)?.[1] ?? "";
      const cache = new SharedCache();
      const answer = await get(canonical);
      expect(answer.status).toBe(200);
      expect(cache.storable(answer.status, answer.headers)).toBe(true);
      for (const alias of [
        canonical.replace("photo-1-", "photo-01-"),
        canonical.replace("-320w.", "-0320w."),
        canonical.replace("/images/products/", "/IMAGES/products/"),
        canonical.replace(version, version.toUpperCase()),
        canonical.replace(".avif", ".AVIF"),
        `${canonical}/`,
        `${canonical}?v=1`,
        `${canonical}?utm_source=a`,
      ]) {
        const response = await get(alias);
        expect(response.status, alias).toBe(404);
        expect(cache.storable(response.status, response.headers), alias).toBe(false);
      }
    });

    it("answers a drawing only at its address: the one before versioning redirects, other spellings are a 404", async () => {
      const canonical = drawingUrl("alfresco", WITHOUT_PHOTOS, 1);
      const cache = new SharedCache();
      const answer = await get(canonical);
      expect(answer.status).toBe(200);
      expect(cache.storable(answer.status, answer.headers)).toBe(true);
      const unversioned = await get(imagePath("alfresco", WITHOUT_PHOTOS, 1));
      expect([unversioned.status, unversioned.headers.get("Location")]).toEqual([302, canonical]);
      expect(cache.storable(unversioned.status, unversioned.headers)).toBe(false);
      for (const alias of [
        canonical.replace("/1.svg", "/01.svg"),
        canonical.replace("?v=2", "?v=02"),
        canonical.replace("?v=2", "?v=3"),
        `${canonical}&x=1`,
        canonical.replace("/images/", "/Images/"),
      ]) {
        const response = await get(alias);
        expect(response.status, alias).toBe(404);
        expect(cache.storable(response.status, response.headers), alias).toBe(false);
      }
    });

    it("serves a broken photo file as the view's drawing, briefly, and logs it once", async () => {
      const errors = expectErrorLog();
      for (const address of [
        await currentPhoto(3, 320, "avif"),
        await currentPhoto(3, 320, "avif"),
        await currentPhoto(3, 640, "jpg"),
        await currentPhoto(3, 160, "webp"),
      ]) {
        const response = await get(address);
        expect(response.status, address).toBe(200);
        expect(response.headers.get("Content-Type")).toBe("image/svg+xml; charset=utf-8");
        expect(response.headers.get("Cache-Control")).toBe("public, max-age=300");
        expect(await response.text()).toContain("View 3 of 3");
      }
      expect(errors.messages()).toHaveLength(1);
      expect(errors.messages()[0]).toMatch(/^Photo cannot be read/);
    });

    it.each([
      `/images/products/alfresco/${WITH_PHOTOS}/1.jpg`, // the original's own name
      `/images/products/alfresco/${WITH_PHOTOS}/photo-4-000000000000-320w.avif`, // no such view
      `/images/products/alfresco/${WITH_PHOTOS}/photo-1-000000000000-321w.avif`, // no such width
      `/images/products/alfresco/${WITH_PHOTOS}/photo-1-000000000000-320w.gif`, // no such format
      `/images/products/alfresco/${WITHOUT_PHOTOS}/photo-1-000000000000-320w.avif`, // a product without photos
      `/images/products/alfresco/..%2F..%2F..%2Fetc/photo-1-000000000000-320w.avif`,
      `/images/products/alfresco/${WITH_PHOTOS}/..%2F..%2F${WITH_PHOTOS}%2F1.jpg`,
      `/images/products/..%2Falfresco/${WITH_PHOTOS}/photo-1-000000000000-320w.avif`,
      `/images/products/alfresco/${WITH_PHOTOS}/photo-1-%00-320w.avif`,
      `/images/products/alfresco/%00/photo-1-000000000000-320w.avif`,
      `/images/products/alfresco/${WITH_PHOTOS}/${"9".repeat(300)}.svg`,
    ])("answers %s with a 404, never a 500", async (pathname) => {
      const response = await get(pathname);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    });
  });

  describe("without a photo folder", () => {
    beforeAll(() => useStore({}));

    it("shows the drawings as before, and draws them", async () => {
      const { pictures, images } = await cardPictures("/products/alfresco/all");
      expect(pictures).toEqual([]);
      expect(images.map((img) => /src="([^"]+)"/.exec(img)?.[1]).sort()).toEqual(
        [`/images/products/alfresco/${WITHOUT_PHOTOS}/1.svg?v=2`, `/images/products/alfresco/${WITH_PHOTOS}/1.svg?v=2`].sort(),
      );
      const drawing = await get(`/images/products/alfresco/${WITH_PHOTOS}/1.svg?v=2`);
      expect(drawing.status).toBe(200);
      expect(drawing.headers.get("Content-Type")).toBe("image/svg+xml; charset=utf-8");
      expect(await drawing.text()).toContain('data-kind="grill-built-in"');
      // A photo address is a 404 when the store has no photos.
      expect((await get(`/images/products/alfresco/${WITH_PHOTOS}/photo-1-000000000000-320w.avif`)).status).toBe(404);
    });

    it("treats a photo folder that is not there as none", async () => {
      await useStore({ PRODUCT_PHOTOS_DIR: path.join(scratch, "missing") });
      expect((await cardPictures("/products/alfresco/all")).pictures).toEqual([]);
      expect(existsSync(path.join(scratch, "missing"))).toBe(false);
    });
  });
});
