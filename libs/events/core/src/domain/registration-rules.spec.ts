import { editionForRegistration, EventState, languageForRegistration } from './registration-rules';

const now = new Date('2026-11-22T15:00:00.000Z');
const edition = (id: string, starts: string, ends: string, status: 'open' | 'cancelled' | 'ended', position: number) => ({
  id,
  eventId: 'e',
  name: id,
  startsAt: new Date(starts),
  endsAt: new Date(ends),
  status,
  position,
});
const event = (status: EventState['status'], editions = [edition('past', '2026-10-01T00:00:00Z', '2026-10-02T00:00:00Z', 'open', 0), edition('cancelled', '2027-01-01T00:00:00Z', '2027-01-02T00:00:00Z', 'cancelled', 1), edition('later', '2027-06-01T00:00:00Z', '2027-06-02T00:00:00Z', 'open', 2), edition('next', '2027-03-01T00:00:00Z', '2027-03-02T00:00:00Z', 'open', 3), edition('ongoing-ended', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', 'ended', 4)]): EventState => ({
  id: 'e',
  accountId: 'a',
  slug: 's',
  name: 'S',
  status,
  languages: ['fr', 'en'],
  editions,
  createdAt: now,
});
const rule = (run: () => unknown) => {
  try {
    return (run() as { id: string }).id;
  } catch (error) {
    const details = (error as { details: Record<string, unknown> | { field: string; reason: string }[] }).details;
    return `${(error as { code: string }).code}:${Array.isArray(details) ? details[0].reason : (details.rule ?? details.resource)}`;
  }
};

describe('editionForRegistration', () => {
  it('defaults to the next open edition (earliest start among open editions not ended yet)', () => {
    expect(rule(() => editionForRegistration(event('published'), null, now))).toBe('next');
  });
  it('event_not_published for a draft, event_closed for an archived event', () => {
    expect(rule(() => editionForRegistration(event('draft'), null, now))).toBe('business_rule_violation:event_not_published');
    expect(rule(() => editionForRegistration(event('archived'), null, now))).toBe('business_rule_violation:event_closed');
  });
  it('event_closed when no open edition is upcoming', () => {
    expect(rule(() => editionForRegistration(event('published', [edition('past', '2026-10-01T00:00:00Z', '2026-10-02T00:00:00Z', 'open', 0)]), null, now))).toBe(
      'business_rule_violation:event_closed',
    );
  });
  it('an edition asked: 404 when not the event\'s, event_closed when cancelled, event_edition_ended when ended or past', () => {
    expect(rule(() => editionForRegistration(event('published'), 'other', now))).toBe('resource_not_found:edition');
    expect(rule(() => editionForRegistration(event('published'), 'cancelled', now))).toBe('business_rule_violation:event_closed');
    expect(rule(() => editionForRegistration(event('published'), 'past', now))).toBe('business_rule_violation:event_edition_ended');
    expect(rule(() => editionForRegistration(event('published'), 'ongoing-ended', now))).toBe('business_rule_violation:event_edition_ended');
    expect(rule(() => editionForRegistration(event('published'), 'later', now))).toBe('later');
  });
});

describe('languageForRegistration', () => {
  it('defaults to the first language; refuses a language the event does not have', () => {
    expect(languageForRegistration(event('published'), null)).toBe('fr');
    expect(languageForRegistration(event('published'), 'en')).toBe('en');
    expect(() => languageForRegistration(event('published'), 'es')).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });
});
