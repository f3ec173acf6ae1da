import { z } from "zod";
import { centsOfDecimal } from "~/utils/money";
import { assertQuotable } from "./quote-request";
import { ShippingRateError, type QuoteRequest, type ShippingAddress, type ShippingRates } from "./types";

const PROVIDER = "easypost";
const DEFAULT_TIMEOUT_MS = 10_000;
const PREFERRED = { carrier: "USPS", service: "Priority" } as const;

export interface EasyPostRatesOptions {
  apiKey: string;
  baseUrl?: string;
  /** 10 s unless a test says otherwise. */
  timeoutMs?: number;
}

const amount = z.union([z.string(), z.number()]).nullish();
const shipmentAnswer = z.object({
  rates: z.array(z.object({ carrier: z.string(), service: z.string(), rate: amount, retail_rate: amount })),
  messages: z.array(z.object({ message: z.string() })).nullish(),
});
const errorAnswer = z.object({ error: z.object({ code: z.string().optional(), message: z.string() }) });

type EasyPostRate = z.infer<typeof shipmentAnswer>["rates"][number];

/** Rates from EasyPost's REST API: creating a shipment answers every carrier rate for it. */
export function createEasyPostRates({
  apiKey,
  baseUrl = "https://api.easypost.com",
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: EasyPostRatesOptions): ShippingRates {
  const endpoint = `${baseUrl.replace(/\/+$/, "")}/v2/shipments`;
  const authorization = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;

  return {
    name: "easypost",
    isStandIn: false,
    async quote(request) {
      assertQuotable(request, PROVIDER);
      const response = await post(endpoint, authorization, shipmentBody(request), timeoutMs);
      const shipment = await readShipment(response);
      const rate = pickRate(shipment.rates, shipment.messages?.[0]?.message);
      const amountCents = centsOfDecimal(rate.retail_rate ?? rate.rate);
      if (amountCents === null) {
        throw new ShippingRateError(`EasyPost's ${rate.carrier} ${rate.service} rate has no usable amount.`, {
          provider: PROVIDER,
        });
      }
      return { amountCents, carrier: rate.carrier, service: rate.service };
    },
  };
}

function shipmentBody({ from, to, parcel }: QuoteRequest) {
  return {
    shipment: {
      from_address: easyPostAddress(from),
      to_address: easyPostAddress(to),
      parcel: { length: parcel.length, width: parcel.width, height: parcel.height, weight: parcel.weight },
    },
  };
}

function easyPostAddress(address: ShippingAddress) {
  const { name, street1, street2, city, state, zip, country, phone } = address;
  return { name, street1, street2, city, state, zip, country, phone };
}

async function post(endpoint: string, authorization: string, body: unknown, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(endpoint, {
      method: "POST",
      headers: { authorization, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ShippingRateError(`EasyPost could not be reached: ${String(error)}`, { provider: PROVIDER, cause: error });
  }
}

async function readShipment(response: Response) {
  const text = await response.text();
  const json = parseJson(text);
  if (!response.ok) throw statusError(response.status, json);
  const parsed = shipmentAnswer.safeParse(json);
  if (!parsed.success) {
    throw new ShippingRateError("EasyPost answered with an unexpected body.", { provider: PROVIDER, statusCode: response.status });
  }
  return parsed.data;
}

function statusError(status: number, json: unknown): ShippingRateError {
  const parsed = errorAnswer.safeParse(json);
  const detail = parsed.success ? parsed.data.error.message : "no error details";
  return new ShippingRateError(`EasyPost answered ${status}: ${detail}`, {
    provider: PROVIDER,
    statusCode: status,
    ...(parsed.success && parsed.data.error.code ? { providerCode: parsed.data.error.code } : {}),
  });
}

function pickRate(rates: EasyPostRate[], carrierMessage: string | undefined): EasyPostRate {
  const rate = rates.find((candidate) => candidate.carrier === PREFERRED.carrier && candidate.service === PREFERRED.service) ?? rates[0];
  if (!rate) {
    const reason = carrierMessage ? `: ${carrierMessage}` : ".";
    throw new ShippingRateError(`EasyPost returned no rates${reason}`, { provider: PROVIDER });
  }
  return rate;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
