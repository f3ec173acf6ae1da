import { describe, expect, it } from "vitest";
import { FALLBACK_CATEGORY, categoryFromTitle, pathKey } from "./category";

// Category paths as they occur in the brand files.
const KNOWN = new Set([
  "Home > Outdoor Kitchens > Side Burners for Grills and Outdoor Kitchens > Power Burners",
  "Home > Outdoor Kitchens > Side Burners for Grills and Outdoor Kitchens > Conventional Side Burners",
  "Home > Outdoor Kitchens > Built-In Grills > Built-In Gas Grills",
  "Home > BBQ Grills & Smokers > Gas Grills",
  "Home > BBQ Grills & Smokers > Kamado Grills & Smokers",
  "Home > Outdoor Kitchens > BBQ Island Installation Components > Insulated Grill Jackets",
  "Home > BBQ Grilling Tools & Accessories > BBQ & Grill Covers > Grill & Smoker Covers",
  "Home > BBQ Grilling Tools & Accessories > Miscellaneous Accessories",
  "Home > Outdoor Kitchens > Outdoor Refrigeration > Outdoor Kegerators & Beverage Dispensers",
  "Home > Outdoor Kitchens > Outdoor Refrigeration > Outdoor Compact Refrigerators",
]);

const derive = (title: string) => pathKey(categoryFromTitle(title, KNOWN).path);

describe("categoryFromTitle (products.json titles)", () => {
  it("maps Power Burner and Side Burner titles to the side-burner paths", () => {
    expect(derive("American Made Grills Estate Power Burner - Natural Gas - ESTPB2-NG")).toBe(
      "Home > Outdoor Kitchens > Side Burners for Grills and Outdoor Kitchens > Power Burners"
    );
    expect(derive("American Made Grills Estate Double Side Burner - Propane - ESTSB2-LP")).toBe(
      "Home > Outdoor Kitchens > Side Burners for Grills and Outdoor Kitchens > Conventional Side Burners"
    );
  });

  it("reads the product type, not the brand name or what it fits", () => {
    // "Grills" in the brand and "Power Burner" in the fit list do not win over "Liner".
    expect(derive("American Made Grills Estate, Muscle, Encore Power Burner Grill Liner - GL-APB2")).toBe(
      "Home > Outdoor Kitchens > BBQ Island Installation Components > Insulated Grill Jackets"
    );
    expect(derive("American Made Grills Rotisserie Kit for Atlas 36-Inch Grill - ROTKIT-ATS36")).toBe(
      "Home > BBQ Grilling Tools & Accessories > Miscellaneous Accessories"
    );
    expect(derive("American Made Grills Estate 42-Inch Built-In Deluxe Grill Cover - GRILLCOV-EST42")).toBe(
      "Home > BBQ Grilling Tools & Accessories > BBQ & Grill Covers > Grill & Smoker Covers"
    );
    expect(derive("American Made Grills 5.3c Deluxe Outdoor Rated Fridge Right to Left Opening - AMG-RFR-24D-R")).toBe(
      "Home > Outdoor Kitchens > Outdoor Refrigeration > Outdoor Compact Refrigerators"
    );
  });

  it("uses built-in vs freestanding for appliances", () => {
    expect(derive("Delta Heat 26-Inch 2-Burner Built-In Natural Gas Grill - DHBQ26G-DN")).toBe(
      "Home > Outdoor Kitchens > Built-In Grills > Built-In Gas Grills"
    );
    expect(derive("American Made Grills Estate 30-Inch Freestanding Grill - Natural Gas - EST30F-NG")).toBe(
      "Home > BBQ Grills & Smokers > Gas Grills"
    );
    expect(derive("Primo Oval XL 400 Ceramic Kamado Grill - PGCXLC")).toBe(
      "Home > BBQ Grills & Smokers > Kamado Grills & Smokers"
    );
  });

  it("only returns paths that exist, else the fallback", () => {
    const result = categoryFromTitle("American Made Grills Double Keg Tap for Kegerator - AMG-RFR-TAP-2", KNOWN);
    expect(result).toEqual({ path: [...FALLBACK_CATEGORY], rule: "fallback" });
    expect(categoryFromTitle("Something Entirely Unknown", new Set()).path).toEqual(["Home"]);
  });
});
