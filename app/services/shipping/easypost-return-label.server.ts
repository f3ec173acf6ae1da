import { z } from "zod";
import { centsOfDecimal } from "~/utils/money";
import { ShippingRateError, type Parcel, type ShippingAddress } from "./types";

const PROVIDER = "easypost";
const DEFAULT_TIMEOUT_MS = 15_000;

/** A prepaid return label EasyPost bought: where to print it, and what it cost (deducted from the refund). */
export interface ReturnLabel {
  shipmentId: string;
  labelUrl: string;
  costCents: number;
  carrier: string;
  service: string;
}

const amount = z.union([z.string(), z.number()]);
const shipmentAnswer = z.object({
  id: z.string().min(1),
  rates: z.array(z.object({ id: z.string().min(1), carrier: z.string(), service: z.string(), rate: amount })),
});
const boughtAnswer = z.object({
  id: z.string().min(1),
  postage_label: z.object({ label_url: z.string().url() }),
  selected_rate: z.object({ carrier: z.string(), service: z.string(), rate: amount }),
});
const errorAnswer = z.object({ error: z.object({ message: z.string() }) });

/**
 * Buys a return label with EasyPost: a Shipment from the customer back to the warehouse marked
 * `is_return` (https://docs.easypost.com/docs/shipments: `to_address` is the customer the parcel went
 * to, `from_address` the warehouse, and EasyPost swaps them on a return label), then buys its lowest
 * rate (`POST /v2/shipments/{id}/buy`). Throws ShippingRateError when EasyPost cannot be reached or refuses.
 */
export async function buyEasyPostReturnLabel(
  {
    apiKey,
    baseUrl = "https://api.easypost.com",
    timeoutMs = DEFAULT_TIMEOUT_MS,
  }: { apiKey: string; baseUrl?: string; timeoutMs?: number },
  { customer, warehouse, parcel, reference }: { customer: ShippingAddress; warehouse: ShippingAddress; parcel: Parcel; reference: string },
): Promise<ReturnLabel> {
  const base = `${baseUrl.replace(/\/+$/, "")}/v2/shipments`;
  const authorization = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;
  const created = shipmentAnswer.safeParse(
    await post(base, authorization, timeoutMs, {
      shipment: { to_address: customer, from_address: warehouse, parcel, is_return: true, reference },
    }),
  );
  if (!created.success)
    throw new ShippingRateError("EasyPost answered the return shipment with an unexpected body.", { provider: PROVIDER });
  const priced = created.data.rates
    .map((rate) => ({ ...rate, cents: centsOfDecimal(rate.rate) }))
    .filter((rate): rate is typeof rate & { cents: number } => rate.cents !== null);
  const cheapest = priced.sort((a, b) => a.cents - b.cents)[0];
  if (!cheapest) throw new ShippingRateError("EasyPost offered no rate for the return label.", { provider: PROVIDER });
  const bought = boughtAnswer.safeParse(
    await post(`${base}/${encodeURIComponent(created.data.id)}/buy`, authorization, timeoutMs, { rate: { id: cheapest.id } }),
  );
  if (!bought.success) throw new ShippingRateError("EasyPost answered the label purchase with an unexpected body.", { provider: PROVIDER });
  const costCents = centsOfDecimal(bought.data.selected_rate.rate);
  if (costCents === null) throw new ShippingRateError("EasyPost's bought rate has no usable amount.", { provider: PROVIDER });
  return {
    shipmentId: bought.data.id,
    labelUrl: bought.data.postage_label.label_url,
    costCents,
    carrier: bought.data.selected_rate.carrier,
    service: bought.data.selected_rate.service,
  };
}

async function post(url: string, authorization: string, timeoutMs: number, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { authorization, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ShippingRateError(`EasyPost could not be reached: ${String(error)}`, { provider: PROVIDER, cause: error });
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const detail = errorAnswer.safeParse(json);
    throw new ShippingRateError(
      `EasyPost answered ${response.status}: ${detail.success ? detail.data.error.message : "no error details"}`,
      {
        provider: PROVIDER,
        statusCode: response.status,
      },
    );
  }
  return json;
}
