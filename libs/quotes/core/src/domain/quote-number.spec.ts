import { formatQuoteNumber } from './quote-number';
import { localDate, localYear } from './dates';

/** operator-api › Quote numbers: `<YYYY>-<sequence padded to 4>`. */
describe('quote numbers', () => {
  it.each([
    [2026, 1, '2026-0001'],
    [2026, 42, '2026-0042'],
    [2026, 9999, '2026-9999'],
    [2027, 10_000, '2027-10000'],
  ])('%p and sequence %p give %p', (year, sequence, expected) => {
    expect(formatQuoteNumber(year, sequence)).toBe(expected);
  });

  it.each([[0], [-1], [1.5]])('refuses sequence %p', (sequence) => {
    expect(() => formatQuoteNumber(2026, sequence)).toThrow(RangeError);
  });

  it('the year is the account-local year: 2026-12-31 23:30 in Montreal is 2027-01-01 04:30 UTC', () => {
    const instant = new Date('2027-01-01T04:30:00.000Z');
    expect(localYear(instant, 'America/Montreal')).toBe(2026);
    expect(localYear(instant, 'UTC')).toBe(2027);
    expect(localDate(instant, 'America/Montreal')).toBe('2026-12-31');
  });
});
