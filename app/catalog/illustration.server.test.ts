import { describe, expect, it } from "vitest";
import type { CatalogProduct } from "./product";
import { escapeXml, placeholderSvg, renderProductSvg } from "./illustration.server";
import { categoryFamily } from "./family";
import { displayImageUrl, imagePath, imagePaths } from "./image-url";
import sharp from "sharp";
import { drawKind, STEEL, STEEL_DARK } from "./drawings.server";
import { PRODUCT_KINDS } from "./kind";
import { LOVE_RUB } from "./custom-product";

type Sample = Pick<CatalogProduct, "Id" | "brand" | "Model" | "Title" | "Category">;

// Real records from the reference catalog (Id, brand, Model, Title, Category).
const samples: Array<[string, Sample]> = [
  [
    "grill",
    {
      Id: "2908730",
      brand: "alfresco",
      Model: "ALXE-42SZ-LP",
      Title: "Alfresco ALXE 42-Inch Built-In Propane Gas Grill With Sear Zone And Rotisserie - ALXE-42SZ-LP",
      Category: ["Home", "Outdoor Kitchens", "Built-In Grills", "Built-In Gas Grills"],
    },
  ],
  [
    "grill",
    {
      Id: "2911568",
      brand: "alfresco",
      Model: "AXESB-2-NG",
      Title: "Alfresco Built-In Natural Gas Double Side Burner - AXESB-2-NG",
      Category: [
        "Home",
        "Outdoor Kitchens",
        "Side Burners for Grills and Outdoor Kitchens",
        "Conventional Side Burners",
      ],
    },
  ],
  [
    "grill",
    {
      Id: "3051843",
      brand: "delta",
      Model: "DHBQ26G-DN",
      Title: "Delta Heat 26-Inch 2-Burner Built-In Natural Gas Grill - DHBQ26G-DN",
      Category: ["Home"],
    },
  ],
  [
    "griddle",
    {
      Id: "3078923",
      brand: "blackstone",
      Model: "1899",
      Title: "Blackstone Original 36-Inch Griddle Cooking Station W/ Hood - 1899",
      Category: ["Home", "BBQ Grills & Smokers", "Outdoor Flat Top Grills & Gas Griddles"],
    },
  ],
  [
    "kamado",
    {
      Id: "2939802",
      brand: "blaze",
      Model: "BLZ-20-KAMADO",
      Title: "Blaze 20-Inch Cast Aluminum Kamado Grill - BLZ-20-KAMADO",
      Category: ["Home", "Outdoor Kitchens", "Built-In Grills", "Built-in Kamado Grills"],
    },
  ],
  [
    "pizza-oven",
    {
      Id: "2908732",
      brand: "alfresco",
      Model: "AXE-PZA-BI-LP",
      Title: "Alfresco 30-Inch Built-In Propane Outdoor Pizza Oven Plus - AXE-PZA-BI-LP",
      Category: ["Home", "BBQ Grills & Smokers", "Outdoor Pizza Ovens", "Built-In Pizza Ovens"],
    },
  ],
  [
    "heater",
    {
      Id: "2865172",
      brand: "bromic_heating",
      Model: "BH0110001",
      Title: "Bromic Heating Platinum 300 Smart-Heat 22-Inch 23,600 BTU Natural Gas Patio Heater - BH0110001",
      Category: [
        "Home",
        "Outdoor Living",
        "Outdoor Heating & Accessories",
        "Patio Heaters",
        "Ceiling & Wall Mounted Outdoor Heaters",
      ],
    },
  ],
  [
    "fire-pit",
    {
      Id: "3024912",
      brand: "the_outdoor_plus",
      Model: "OPT-DEL7228-ASH-NG",
      Title: "Del Mar 72 Inch Rectangular GFRC Natural Gas Fire Pit in Ash by The Outdoor Plus",
      Category: ["Home", "Outdoor Living", "Outdoor Heating & Accessories", "Outdoor Fire Pits", "Gas Fire Pits"],
    },
  ],
  [
    "fire-pit",
    {
      Id: "3159969",
      brand: "blaze",
      Model: "BLZ-38-FBOWL-LP",
      Title: "Blaze 38 Inch Round Concrete Propane Fire Bowl in Phantom",
      Category: ["Home", "Outdoor Living", "Outdoor Heating & Accessories", "Outdoor Fire Pits", "Fire Bowls"],
    },
  ],
  [
    "refrigerator",
    {
      Id: "3103316",
      brand: "american_made_grills",
      Model: "AMG-RFR-24D-R",
      Title: "American Made Grills 5.3c Deluxe Outdoor Rated Fridge Right to Left Opening - AMG-RFR-24D-R",
      Category: ["Home", "Outdoor Kitchens", "Outdoor Refrigeration", "Outdoor Compact Refrigerators"],
    },
  ],
  [
    "cabinet",
    {
      Id: "3084404",
      brand: "american_made_grills",
      Model: "SSDD-36AMG",
      Title: "American Made Grills 36-Inch Double Access Door w/ Encore & Muscle Handles - SSDD-36AMG",
      Category: [
        "Home",
        "Outdoor Kitchens",
        "Outdoor Kitchen Cabinets & Storage",
        "Outdoor Kitchen Doors & Drawers",
        "BBQ & Outdoor Kitchen Access Doors",
      ],
    },
  ],
  [
    "cabinet",
    {
      Id: "3092522",
      brand: "artisan",
      Model: "ARTP-3DR-17SC",
      Title: "Artisan 17-Inch Soft-Close Triple Access Drawer - ARTP-3DR-17SC",
      Category: [
        "Home",
        "Outdoor Kitchens",
        "Outdoor Kitchen Cabinets & Storage",
        "Outdoor Kitchen Doors & Drawers",
        "Outdoor Kitchen Storage Drawers",
      ],
    },
  ],
  [
    "furniture",
    {
      Id: "3161598",
      brand: "ledge_lounger",
      Model: "LL-AG-C-GG",
      Title: "Ledge Lounger Autograph Chaise Lounge - Granite Grey",
      Category: ["Home", "Outdoor Living", "Outdoor Patio Furniture", "Outdoor Chaise Lounge Furniture"],
    },
  ],
  [
    "cover",
    {
      Id: "3084356",
      brand: "american_made_grills",
      Model: "CARTCOV-AMG54",
      Title: "American Made Grills Encore/Muscle 54-Inch Freestanding Deluxe Grill Cover - CARTCOV-AMG54",
      Category: ["Home", "BBQ Grilling Tools & Accessories", "BBQ & Grill Covers", "Grill & Smoker Covers"],
    },
  ],
  [
    "accessory",
    {
      Id: "3068315",
      brand: "napoleon",
      Model: "55011",
      Title: "Napoleon PRO Stainless Steel Easy Locking Tongs - 55011",
      Category: ["Home", "BBQ Grilling Tools & Accessories", "BBQ Grill Tools & Utensils", "Grill Tongs"],
    },
  ],
  [
    "accessory",
    {
      Id: "3015411",
      brand: "blaze",
      Model: "BLZ-32-089",
      Title: "Blaze Analog Temperature Gauge w/ Bezel & Cover Plate - BLZ-32-089",
      Category: ["Home", "BBQ Grilling Tools & Accessories", "Grill Thermometers"],
    },
  ],
  ["seasoning", LOVE_RUB],
];

describe("categoryFamily", () => {
  it.each(samples)("%s: %s", (family, product) => {
    expect(categoryFamily(product)).toBe(family);
  });

  it("covers every family", () => {
    expect(new Set(samples.map(([family]) => family)).size).toBe(12);
  });
});

/** Every element closed, properly nested, attributes quoted, no stray `&` or `<`: the XML an SVG viewer accepts. */
function xmlProblems(svg: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|>/g;
  let last = 0;
  for (let match = tag.exec(svg); match; match = tag.exec(svg)) {
    const text = svg.slice(last, match.index);
    if (/&(?!amp;|lt;|gt;|quot;|apos;|#\d+;)/.test(text)) problems.push(`a bare & in ${JSON.stringify(text.slice(0, 40))}`);
    last = tag.lastIndex;
    const [whole, closing, name, , selfClosing] = match;
    if (whole === "<" || whole === ">") {
      problems.push(`a stray ${whole} at ${match.index}: ${svg.slice(match.index, match.index + 40)}`);
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open}>`);
    } else if (!selfClosing) stack.push(name ?? "");
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(", ")}`);
  return problems;
}

describe("renderProductSvg", () => {
  it.each(samples)("draws %s products as a small, well-formed SVG", (_family, product) => {
    const svg = renderProductSvg({ ...product, image_count: 3 }, 2);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.endsWith("</svg>")).toBe(true);
    expect(svg).toContain('viewBox="0 0 600 600"');
    expect(svg).toContain("View 2 of 3");
    expect(svg.length).toBeLessThan(8 * 1024);
    expect(xmlProblems(svg)).toEqual([]);
  });

  it("names the kind it draws, paints the product's colour, and has a drawing for every kind", () => {
    const red = renderProductSvg(
      {
        Id: "x",
        brand: "alfresco",
        Model: "ALXE-56BFGC-LP-S3027",
        Title: "Alfresco ALXE 56-Inch Freestanding Propane All Grill With Sear Zone And Rotisserie in Raspberry Red - ALXE-56BFGC-LP-S3027",
        Category: ["Home", "BBQ Grills & Smokers", "Gas Grills"],
      },
      1,
    );
    expect(red).toContain('data-kind="grill-cart"');
    expect(red).toContain("#a3213b");
  });

  it("writes brand and model, escaping XML", () => {
    const svg = renderProductSvg(
      {
        Id: "1",
        brand: "fire_magic",
        Model: "A&B<1>",
        Title: 'Fire Magic Grill & Griddle "Combo"',
        Category: ["Home"],
        image_count: 1,
      },
      1
    );
    expect(svg).toContain(">Fire Magic<");
    expect(svg).toContain("A&amp;B&lt;1&gt;");
    expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
  });

  it("is deterministic and varies between views", () => {
    const product = { ...samples[0]![1], image_count: 4 };
    expect(renderProductSvg(product, 1)).toBe(renderProductSvg(product, 1));
    const views = new Set([1, 2, 3, 4].map((n) => renderProductSvg(product, n)));
    expect(views.size).toBe(4);
  });

  it("clamps the view to 1..image_count", () => {
    const product = { ...samples[0]![1], image_count: 2 };
    expect(renderProductSvg(product, 9)).toContain("View 2 of 2");
    expect(renderProductSvg(product, 0)).toContain("View 1 of 2");
  });

  it("labels the seasoning jar LOVE RUB", () => {
    expect(renderProductSvg(LOVE_RUB, 1)).toContain(">LOVE RUB<");
  });
});

describe("drawKind", () => {
  const palette = { body: STEEL, shade: STEEL_DARK, light: "#dde2e8", part: STEEL };
  const svgOf = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600">${body}</svg>`;

  it.each(PRODUCT_KINDS.map((kind) => [kind]))("draws %s as valid SVG that an SVG renderer accepts", async (kind) => {
    const svg = svgOf(drawKind(kind, palette));
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg.length).toBeLessThan(4 * 1024);
    // librsvg (in sharp) parses and renders it: a malformed drawing throws here.
    const { info } = await sharp(Buffer.from(svg)).png().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([600, 600]);
  });

  it("gives every kind a drawing of its own", () => {
    const drawings = new Map(PRODUCT_KINDS.map((kind) => [drawKind(kind, palette), kind]));
    expect(drawings.size).toBe(PRODUCT_KINDS.length);
  });
});

describe("placeholderSvg", () => {
  it("says the image is unavailable", () => {
    const svg = placeholderSvg();
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).toContain("Image unavailable");
  });
});

describe("image paths", () => {
  it("encodes the Id", () => {
    expect(imagePath("custom_product", "LOVE-RUB-001", 3)).toBe("/images/products/custom_product/LOVE-RUB-001/3.svg");
    expect(imagePath("blaze", "A/B C", 1)).toBe("/images/products/blaze/A%2FB%20C/1.svg");
    expect(imagePaths("blaze", "1", 0)).toEqual(["/images/products/blaze/1/1.svg"]);
  });
});

describe("displayImageUrl", () => {
  it.each([
    ["https://cdn.example.com/p/grill.jpg?resize=300,300", "https://cdn.example.com/p/grill.jpg"],
    ["https://cdn.example.com/p/grill.jpg?width=600&height=600", "https://cdn.example.com/p/grill.jpg"],
    ["https://cdn.example.com/p/grill.jpg?v=3&w=200", "https://cdn.example.com/p/grill.jpg?v=3"],
    ["https://cdn.example.com/p/grill_100x100.jpg", "https://cdn.example.com/p/grill.jpg"],
    ["https://cdn.example.com/p/grill-600x600.png", "https://cdn.example.com/p/grill.png"],
  ])("cuts the resize suffix of %s", (url, expected) => {
    expect(displayImageUrl(url)).toBe(expected);
  });

  it.each([
    "/images/products/blaze/3159834/1.svg",
    "/images/products/custom_product/LOVE-RUB-001/3.svg",
    "https://cdn.example.com/p/grill.jpg?v=3",
    "https://cdn.example.com/p/BLZ-600.jpg",
    "",
  ])("leaves %j unchanged", (url) => {
    expect(displayImageUrl(url)).toBe(url);
  });

  it("escapes XML special characters", () => {
    expect(escapeXml(`a & b < c > "d" 'e'`)).toBe("a &amp; b &lt; c &gt; &quot;d&quot; &apos;e&apos;");
  });
});
