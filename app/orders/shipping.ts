/**
 * The carriers the store ships with, each with its public tracking page. A browser-safe module: the
 * dashboard's status form lists them, the order page and the shipped email link to the carrier.
 */
export const CARRIERS = [
  { id: "UPS", label: "UPS", trackingUrl: "https://www.ups.com/track?tracknum={number}", easyPost: "UPS" },
  { id: "FedEx", label: "FedEx", trackingUrl: "https://www.fedex.com/fedextrack/?trknbr={number}", easyPost: "FedEx" },
  { id: "USPS", label: "USPS", trackingUrl: "https://tools.usps.com/go/TrackConfirmAction?tLabels={number}", easyPost: "USPS" },
  {
    id: "R+L Carriers",
    label: "R+L Carriers",
    trackingUrl: "https://www.rlcarriers.com/freight/shipping/shipment-tracing?pro={number}",
    easyPost: null,
  },
  {
    id: "Estes",
    label: "Estes",
    trackingUrl: "https://www.estes-express.com/myestes/shipment-tracking/?type=PRO&query={number}",
    easyPost: null,
  },
  { id: "XPO", label: "XPO", trackingUrl: "https://www.xpo.com/track/?query={number}", easyPost: null },
  { id: "Other", label: "Other", trackingUrl: null, easyPost: null },
] as const satisfies ReadonlyArray<{ id: string; label: string; trackingUrl: string | null; easyPost: string | null }>;

export type CarrierId = (typeof CARRIERS)[number]["id"];

export const CARRIER_IDS = CARRIERS.map((carrier) => carrier.id) as [CarrierId, ...CarrierId[]];

function carrierOf(id: string) {
  return CARRIERS.find((carrier) => carrier.id === id);
}

/** The carrier's public tracking page for the number, or null (Other, or a carrier the store no longer lists). */
export function trackingUrl(carrier: string, trackingNumber: string): string | null {
  const template = carrierOf(carrier)?.trackingUrl;
  return template ? template.replace("{number}", encodeURIComponent(trackingNumber)) : null;
}

/** EasyPost's name of the carrier; null lets EasyPost detect it from the number. */
export function easyPostCarrier(carrier: string): string | null {
  return carrierOf(carrier)?.easyPost ?? null;
}

/** A parcel as the shopper sees it: who carries it, its number, the carrier's page and the delivery date (ISO). */
export interface Shipment {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
  deliveredAt: string | null;
}

export function shipmentOf(order: { carrier: string | null; trackingNumber: string | null; deliveredAt: Date | null }): Shipment | null {
  if (!order.carrier || !order.trackingNumber) return null;
  return {
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    trackingUrl: trackingUrl(order.carrier, order.trackingNumber),
    deliveredAt: order.deliveredAt?.toISOString() ?? null,
  };
}
