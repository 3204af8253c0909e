import { familyOf } from './usage-family';

describe('familyOf (Usage counter rules 1 and 3: one family per request)', () => {
  it('counts 2xx as confirmed successes, 4xx and 5xx as errors', () => {
    expect(familyOf(200, false)).toBe('status_2xx');
    expect(familyOf(201, false)).toBe('status_2xx');
    expect(familyOf(204, false)).toBe('status_2xx');
    expect(familyOf(400, false)).toBe('status_4xx');
    expect(familyOf(404, false)).toBe('status_4xx');
    expect(familyOf(500, false)).toBe('status_5xx');
    expect(familyOf(503, false)).toBe('status_5xx');
  });

  it('counts a limiter refusal in rate_limited, never also in status_4xx', () => {
    expect(familyOf(429, true)).toBe('rate_limited');
  });

  it('counts a business 429 (trigger throttled, test quota, subscription cap) in status_4xx', () => {
    expect(familyOf(429, false)).toBe('status_4xx');
  });

  it('gives 1xx and 3xx no family: they stay status_unknown (neither success nor error)', () => {
    expect(familyOf(101, false)).toBeNull();
    expect(familyOf(308, false)).toBeNull();
  });
});
