import type { FactTopic } from "./store-facts";

/** What a question is about besides products, found by plain keywords. */
export type QuestionTopic = FactTopic | "contact" | "greeting" | "thanks";

const TOPIC_PATTERNS: Array<[QuestionTopic, RegExp]> = [
  [
    "delivery",
    /\b(ship(s|ping|ped)?|deliver(y|ies|ed)?|freight|arriv(e|es|al)|how long|shipping cost|curbside|pallet|tracking|track(ing)? number|alaska|hawaii|canada|international)\b/,
  ],
  ["returns", /\b(return(s|ing|ed)?|refund(s|ed)?|exchange|send (it )?back)\b/],
  ["defective", /\b(defect(ive)?|damaged?|broken|warranty|claim|serial number)\b/],
  ["orders", /\b(order (status|id|number)|where is my order|my order|track (my )?order|cancel (my )?order)\b/],
  ["payment", /\b(pay(ment|ing)?|paypal|credit card|card|financ(e|ing)|apr|installments?|affirm|tax(es)?)\b/],
  ["privacy", /\b(privacy|personal (data|information)|my data)\b/],
  ["seasoning", /\b(love rub|seasoning|rub|spice)\b/],
  ["contact", /\b(contact|phone|call|email|e-mail|talk|speak|human|agent|representative|reach you|sales team|expert)\b/],
  ["greeting", /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b[\s!.?]*$/],
  ["thanks", /^\s*(thanks?( you)?|thx|great|ok(ay)?|cool)\b[\s!.?]*$/],
];

/** The topics a question touches, in a fixed order, at most three. */
export function questionTopics(question: string): QuestionTopic[] {
  const text = question.toLowerCase();
  return TOPIC_PATTERNS.filter(([, pattern]) => pattern.test(text))
    .map(([topic]) => topic)
    .slice(0, 3);
}
