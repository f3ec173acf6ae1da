/** A page number to link, or a gap ("…") between two runs of them. */
export type PageSlot = number | "gap";

/**
 * The page buttons a list shows: the first and last page, and the pages within `around` of the current
 * one, with a gap where pages are left out (a gap never stands for a single page: that page is shown).
 * A catalogue of 100,000 products has 1,000 pages; a list of every number made each page 60 KB larger.
 */
export function pageSlots(page: number, pageCount: number, around = 2): PageSlot[] {
  const current = Math.min(Math.max(1, page), pageCount);
  const shown = new Set([1, pageCount]);
  for (let number = current - around; number <= current + around; number++) if (number >= 1 && number <= pageCount) shown.add(number);
  const numbers = [...shown].sort((a, b) => a - b);
  const slots: PageSlot[] = [];
  numbers.forEach((number, index) => {
    const previous = numbers[index - 1];
    if (previous !== undefined && number - previous === 2) slots.push(previous + 1);
    else if (previous !== undefined && number - previous > 2) slots.push("gap");
    slots.push(number);
  });
  return slots;
}
