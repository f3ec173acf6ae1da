import { describe, expect, it } from "vitest";
import { shipmentSchema } from "~/staff/dashboard-form.server";
import { CARRIERS, easyPostCarrier, shipmentOf, trackingUrl } from "./shipping";

describe("carriers", () => {
  it("link every listed carrier but Other to its public tracking page, with the number encoded", () => {
    expect(trackingUrl("UPS", "1Z999AA10123456784")).toBe("https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(trackingUrl("FedEx", "449044304137821")).toBe("https://www.fedex.com/fedextrack/?trknbr=449044304137821");
    expect(trackingUrl("USPS", "9400100000000000000000")).toBe(
      "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000",
    );
    for (const carrier of CARRIERS.filter((c) => c.id !== "Other")) {
      const url = new URL(trackingUrl(carrier.id, "AB-12/&x")!);
      expect(url.protocol).toBe("https:");
      expect(url.href).toContain("AB-12%2F%26x");
    }
    expect(trackingUrl("Other", "12345")).toBeNull();
    expect(trackingUrl("Pony Express", "12345")).toBeNull();
  });

  it("name EasyPost's carrier where EasyPost knows it, and let EasyPost detect the rest", () => {
    expect(easyPostCarrier("UPS")).toBe("UPS");
    expect(easyPostCarrier("FedEx")).toBe("FedEx");
    expect(easyPostCarrier("Other")).toBeNull();
    expect(easyPostCarrier("Estes")).toBeNull();
  });

  it("show a parcel only when both carrier and number are known", () => {
    expect(shipmentOf({ carrier: null, trackingNumber: "1", deliveredAt: null })).toBeNull();
    expect(shipmentOf({ carrier: "UPS", trackingNumber: "1Z1", deliveredAt: new Date("2026-11-27T15:00:00Z") })).toEqual({
      carrier: "UPS",
      trackingNumber: "1Z1",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z1",
      deliveredAt: "2026-11-27T15:00:00.000Z",
    });
  });
});

describe("the shipment fields", () => {
  const parse = (carrier: string, trackingNumber: string) => shipmentSchema.safeParse({ carrier, trackingNumber });

  it("take a listed carrier and a trimmed number, printed spaces dropped", () => {
    expect(parse("USPS", "  9400 1000 0000 0000 0000 00 ")).toMatchObject({
      success: true,
      data: { carrier: "USPS", trackingNumber: "9400100000000000000000" },
    });
    expect(parse("R+L Carriers", "I123-456").success).toBe(true);
  });

  it("refuse a missing or unknown carrier and a missing, short, long or odd number, with a clear message", () => {
    const message = (carrier: string, number: string) => {
      const result = parse(carrier, number);
      return result.success ? null : result.error.issues[0]?.message;
    };
    expect(message("", "1Z999")).toBe("Choose the carrier to mark the order Shipped.");
    expect(message("DHL Express", "1Z999")).toBe("Choose the carrier to mark the order Shipped.");
    expect(message("UPS", "   ")).toBe("Enter the tracking number to mark the order Shipped.");
    expect(message("UPS", "123")).toBe("A tracking number has 4 to 40 letters, digits or dashes.");
    expect(message("UPS", "1".repeat(41))).toBe("A tracking number has 4 to 40 letters, digits or dashes.");
    expect(message("UPS", "<script>")).toBe("A tracking number has 4 to 40 letters, digits or dashes.");
    expect(message("UPS", "1Z99;drop")).toBe("A tracking number has 4 to 40 letters, digits or dashes.");
  });
});
