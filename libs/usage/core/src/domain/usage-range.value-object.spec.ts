import { DomainError } from '@leadflow/shared-kernel';
import { parseInstant, UsageRange } from './usage-range.value-object';

function refusal(query: Record<string, unknown>): { code: string; details: unknown } {
  try {
    UsageRange.parse(query);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.details };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('UsageRange (GET /v1/usage query: from, to, granularity; Limits: usage range)', () => {
  it('accepts from inclusive and to exclusive with granularity day by default', () => {
    const range = UsageRange.parse({ from: '2026-03-10T00:00:00Z', to: '2026-03-11T00:00:00.000Z' });
    expect(range.from.toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(range.to.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(range.granularity).toBe('day');
    expect(UsageRange.parse({ from: '2026-03-10', to: '2026-03-11', granularity: 'hour' }).granularity).toBe('hour');
  });

  it('requires from and to: 400 invalid_request with details.field', () => {
    expect(refusal({ to: '2026-03-11T00:00:00Z' })).toEqual({ code: 'invalid_request', details: { field: 'from', reason: 'required' } });
    expect(refusal({ from: '2026-03-10T00:00:00Z' })).toEqual({ code: 'invalid_request', details: { field: 'to', reason: 'required' } });
    expect(refusal({ from: '', to: '2026-03-11T00:00:00Z' })).toEqual({ code: 'invalid_request', details: { field: 'from', reason: 'required' } });
  });

  it('refuses timestamps that are not ISO 8601 instants', () => {
    for (const from of ['yesterday', '2026-03-10T10:00:00', '2026-02-30T00:00:00Z', '2026-03-10T24:00:00Z', '1741600000', ['2026-03-10', '2026-03-11']]) {
      expect(refusal({ from, to: '2026-03-12T00:00:00Z' })).toEqual({ code: 'invalid_request', details: { field: 'from', reason: 'invalid_datetime' } });
    }
  });

  it('refuses to not strictly after from', () => {
    expect(refusal({ from: '2026-03-10T00:00:00Z', to: '2026-03-10T00:00:00Z' })).toEqual({ code: 'invalid_request', details: { field: 'to', reason: 'not_after_from' } });
    expect(refusal({ from: '2026-03-10T00:00:00Z', to: '2026-03-09T00:00:00Z' })).toEqual({ code: 'invalid_request', details: { field: 'to', reason: 'not_after_from' } });
  });

  it('allows a range of exactly 90 days and refuses a longer one', () => {
    expect(UsageRange.parse({ from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00Z' }).to.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(refusal({ from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00.001Z' })).toEqual({ code: 'invalid_request', details: { field: 'to', reason: 'range_too_long' } });
  });

  it('refuses a granularity other than hour or day', () => {
    for (const granularity of ['week', 'HOUR', '', ['hour']]) {
      expect(refusal({ from: '2026-03-10', to: '2026-03-11', granularity })).toEqual({ code: 'invalid_request', details: { field: 'granularity', reason: 'invalid_value' } });
    }
  });

  it('reads offsets, fractions and a space standing for an unencoded +', () => {
    expect(parseInstant('2026-03-10T10:00:00+01:00')?.toISOString()).toBe('2026-03-10T09:00:00.000Z');
    expect(parseInstant('2026-03-10T10:00:00 01:00')?.toISOString()).toBe('2026-03-10T09:00:00.000Z');
    expect(parseInstant('2026-03-10T10:00-0500')?.toISOString()).toBe('2026-03-10T15:00:00.000Z');
    expect(parseInstant('2026-03-10T10:00:00.1234Z')?.toISOString()).toBe('2026-03-10T10:00:00.123Z');
  });
});
