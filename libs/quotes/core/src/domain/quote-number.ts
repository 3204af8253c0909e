/** operator-api › Quote numbers: `<YYYY>-<sequence padded to 4>` (`2026-0001`; `2026-12345` past 9999). */
export function formatQuoteNumber(year: number, sequence: number): string {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`invalid quote year ${year}`);
  if (!Number.isInteger(sequence) || sequence < 1) throw new RangeError(`invalid quote sequence ${sequence}`);
  return `${year}-${String(sequence).padStart(4, '0')}`;
}
