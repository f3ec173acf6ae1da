import { z } from "zod";

/** The shapes of the Authorize.Net API answers the driver reads (everything else in them is ignored). */

const amount = z.union([z.number(), z.string()]).nullish();
const transactionDetailsSchema = z.object({
  transId: z.string(),
  transactionStatus: z.string(),
  responseReasonDescription: z.string().nullish(),
  authAmount: amount,
  settleAmount: amount,
  order: z.object({ invoiceNumber: z.string().nullish() }).nullish(),
  payment: z.object({ creditCard: z.object({ cardNumber: z.string().nullish() }).nullish() }).nullish(),
});
export const transactionAnswer = z.object({
  transactionResponse: z
    .object({
      responseCode: z.string().nullish(),
      transId: z.string().nullish(),
      errors: z.array(z.object({ errorText: z.string() })).nullish(),
    })
    .nullish(),
});
export type TransactionDetails = z.infer<typeof transactionDetailsSchema>;
export const detailsAnswer = z.object({ transaction: transactionDetailsSchema });
export const listAnswer = z.object({
  transactions: z.array(z.object({ transId: z.string(), invoiceNumber: z.string().nullish() })).nullish(),
});
export const batchListAnswer = z.object({ batchList: z.array(z.object({ batchId: z.string() })).nullish() });
export const messagesSchema = z.object({
  resultCode: z.string(),
  message: z.array(z.object({ code: z.string(), text: z.string() })).nullish(),
});
