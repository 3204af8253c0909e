import { LeadEngagement, LeadProfile, LeadScoreFacts, NO_ENGAGEMENT, scoreLead } from './lead-score';
import { leadScoreFacts, LeadScoreContact, LeadSignals } from './lead-signals';

/** README › Decisions › Lead score (issue 13, item 6): one test per rule of the module's table. */
const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

const EMPTY_PROFILE: LeadProfile = {
  email: null,
  phone: null,
  firstName: null,
  lastName: null,
  company: null,
  dealValueCents: null,
  addressParts: { address: null, postalCode: null, city: null },
};

function facts(overrides: Partial<Omit<LeadScoreFacts, 'engagement' | 'profile'>> & { profile?: Partial<LeadProfile>; engagement?: Partial<LeadEngagement> } = {}): LeadScoreFacts {
  const { profile, engagement, ...rest } = overrides;
  return {
    profile: { ...EMPTY_PROFILE, ...profile },
    consent: { sms: false, email: false },
    inbound: false,
    attribution: {},
    engagement: { ...NO_ENGAGEMENT, ...engagement },
    // old enough that recency gives nothing unless a test sets it
    createdAt: new Date(NOW.getTime() - 365 * DAY),
    disqualified: false,
    ...rest,
  };
}

const score = (input: LeadScoreFacts) => scoreLead(input, NOW);

describe('lead score', () => {
  it('a contact with nothing known scores 0', () => {
    expect(score(facts())).toEqual({ score: 0, parts: { profile: 0, consent: 0, source: 0, recency: 0, engagement: 0 }, reviewAt: null });
  });

  describe('profile completeness (max 20)', () => {
    it('email 5, phone 5', () => {
      expect(score(facts({ profile: { email: 'a@b.test' } })).parts.profile).toBe(5);
      expect(score(facts({ profile: { phone: '+15145550100' } })).parts.profile).toBe(5);
    });

    it('a first or last name 4 (both count once)', () => {
      expect(score(facts({ profile: { firstName: 'Élise' } })).parts.profile).toBe(4);
      expect(score(facts({ profile: { lastName: 'Roy' } })).parts.profile).toBe(4);
      expect(score(facts({ profile: { firstName: 'Élise', lastName: 'Roy' } })).parts.profile).toBe(4);
    });

    it('company 2, address (street address, postal code or city) 2, deal value 2', () => {
      expect(score(facts({ profile: { company: 'Tremblay inc.' } })).parts.profile).toBe(2);
      expect(score(facts({ profile: { addressParts: { address: null, postalCode: 'H2X 1Y4', city: null } } })).parts.profile).toBe(2);
      expect(score(facts({ profile: { addressParts: { address: null, postalCode: null, city: 'Laval' } } })).parts.profile).toBe(2);
      expect(score(facts({ profile: { dealValueCents: 1_500_000 } })).parts.profile).toBe(2);
    });

    it('blank strings count as missing', () => {
      expect(score(facts({ profile: { firstName: '  ', company: '' } })).parts.profile).toBe(0);
    });

    it('a complete profile gives the maximum, 20', () => {
      const complete: Partial<LeadProfile> = {
        email: 'a@b.test',
        phone: '+15145550100',
        firstName: 'Élise',
        company: 'Tremblay inc.',
        dealValueCents: 100,
        addressParts: { address: '10 rue Sainte-Catherine', postalCode: null, city: null },
      };
      expect(score(facts({ profile: complete })).parts.profile).toBe(20);
    });
  });

  describe('consent (max 10)', () => {
    it('SMS consent 6, email consent 4', () => {
      expect(score(facts({ consent: { sms: true, email: false } })).parts.consent).toBe(6);
      expect(score(facts({ consent: { sms: false, email: true } })).parts.consent).toBe(4);
      expect(score(facts({ consent: { sms: true, email: true } })).parts.consent).toBe(10);
    });
  });

  describe('source and attribution (max 10)', () => {
    it('came through a funnel 4', () => {
      expect(score(facts({ inbound: true })).parts.source).toBe(4);
    });

    it('campaign attribution (any utm member) 3', () => {
      expect(score(facts({ attribution: { source: 'facebook' } })).parts.source).toBe(3);
      expect(score(facts({ attribution: { campaign: 'printemps' } })).parts.source).toBe(3);
    });

    it('an ad click id (gclid) 3, on top of its google / cpc origin', () => {
      expect(score(facts({ attribution: { source: 'google', medium: 'cpc', gclid: 'Cj0K' } })).parts.source).toBe(6);
      expect(score(facts({ inbound: true, attribution: { source: 'google', medium: 'cpc', gclid: 'Cj0K' } })).parts.source).toBe(10);
    });

    it('attribution members that are not utm or gclid give nothing', () => {
      expect(score(facts({ attribution: { landing_page: 'https://example.test' } })).parts.source).toBe(0);
    });
  });

  describe('recency (max 15)', () => {
    const touched = (daysAgo: number) => facts({ engagement: { lastTouchAt: new Date(NOW.getTime() - daysAgo * DAY) } });

    it('last touch at most 7 days ago 15, reviewed when it turns older than 7 days', () => {
      const result = score(touched(2));
      expect(result.parts.recency).toBe(15);
      expect(result.reviewAt).toEqual(new Date(NOW.getTime() - 2 * DAY + 7 * DAY + 1));
      expect(score(touched(7)).parts.recency).toBe(15);
    });

    it('at most 30 days 10, at most 90 days 5, older 0 (no review left)', () => {
      expect(score(touched(8)).parts.recency).toBe(10);
      expect(score(touched(30)).parts.recency).toBe(10);
      expect(score(touched(31)).parts.recency).toBe(5);
      expect(score(touched(90)).parts.recency).toBe(5);
      expect(score(touched(91))).toMatchObject({ parts: { recency: 0 }, reviewAt: null });
      expect(score(touched(31)).reviewAt).toEqual(new Date(NOW.getTime() - 31 * DAY + 90 * DAY + 1));
    });

    it('the last touch is the creation when nothing later happened', () => {
      const created = new Date(NOW.getTime() - DAY);
      expect(score(facts({ createdAt: created })).parts.recency).toBe(15);
      expect(score(facts({ createdAt: created, engagement: { lastTouchAt: new Date(created.getTime() - 60 * DAY) } })).parts.recency).toBe(15);
    });

    it('a last touch in the future reads as now', () => {
      expect(score(touched(-1)).parts.recency).toBe(15);
    });
  });

  describe('engagement (max 45)', () => {
    const engaged = (engagement: Partial<LeadEngagement>) => score(facts({ engagement })).parts.engagement;

    it('a booking not cancelled 10; attended +5', () => {
      expect(engaged({ bookings: 1 })).toBe(10);
      expect(engaged({ bookings: 3 })).toBe(10);
      expect(engaged({ bookings: 1, bookingsAttended: 1 })).toBe(15);
    });

    it('only no-shows −5 (the part never goes below 0)', () => {
      expect(engaged({ bookings: 1, bookingsMissed: 1 })).toBe(5);
      expect(engaged({ bookings: 2, bookingsAttended: 1, bookingsMissed: 1 })).toBe(15);
      expect(engaged({ bookingsMissed: 1 })).toBe(0);
    });

    it('a quote viewed 8; a quote signed 12 more (a signature implies the view)', () => {
      expect(engaged({ quotesViewed: 1 })).toBe(8);
      expect(engaged({ quotesViewed: 2 })).toBe(8);
      expect(engaged({ quotesViewed: 1, quotesSigned: 1 })).toBe(20);
      expect(engaged({ quotesSigned: 1 })).toBe(20);
    });

    it('custom events 2 each, max 6', () => {
      expect(engaged({ customEvents: 1 })).toBe(2);
      expect(engaged({ customEvents: 3 })).toBe(6);
      expect(engaged({ customEvents: 40 })).toBe(6);
    });

    it('email replies 4 each, max 8', () => {
      expect(engaged({ emailReplies: 1 })).toBe(4);
      expect(engaged({ emailReplies: 5 })).toBe(8);
    });

    it('presuasion submissions 4 each, max 8', () => {
      expect(engaged({ formSubmissions: 1 })).toBe(4);
      expect(engaged({ formSubmissions: 3 })).toBe(8);
    });

    it('the part is capped at 45', () => {
      expect(engaged({ bookings: 1, bookingsAttended: 1, quotesSigned: 1, customEvents: 9, emailReplies: 9, formSubmissions: 9 })).toBe(45);
    });
  });

  it('the parts add up, and everything at once gives 100', () => {
    const best = facts({
      profile: { email: 'a@b.test', phone: '+15145550100', firstName: 'Élise', company: 'Tremblay', dealValueCents: 100, addressParts: { address: null, postalCode: null, city: 'Laval' } },
      consent: { sms: true, email: true },
      inbound: true,
      attribution: { source: 'google', gclid: 'Cj0K' },
      createdAt: NOW,
      engagement: { bookings: 1, bookingsAttended: 1, quotesSigned: 1, customEvents: 3, emailReplies: 2, formSubmissions: 2 },
    });
    expect(score(best)).toMatchObject({ score: 100, parts: { profile: 20, consent: 10, source: 10, recency: 15, engagement: 45 } });
  });

  it('a disqualified contact scores 0 and leaves the review schedule', () => {
    expect(score(facts({ disqualified: true, consent: { sms: true, email: true }, createdAt: NOW, engagement: { quotesSigned: 1 } }))).toEqual({
      score: 0,
      parts: { profile: 0, consent: 0, source: 0, recency: 0, engagement: 0 },
      reviewAt: null,
    });
  });

  it('the same facts at the same time give the same score (pure)', () => {
    const input = facts({ profile: { email: 'a@b.test' }, createdAt: new Date(NOW.getTime() - 3 * DAY), engagement: { quotesViewed: 1 } });
    expect(score(input)).toEqual(score(input));
  });
});

describe('lead score facts from the recorded signals', () => {
  const contact: LeadScoreContact = { ...EMPTY_PROFILE, email: 'a@b.test', attribution: {}, sourceLabel: null, disqualifiedAt: null, createdAt: NOW };
  const signals: LeadSignals = {
    captures: 0,
    formSubmissions: 0,
    latestFormConsent: null,
    emailUnsubscribed: false,
    bookings: 0,
    bookingsAttended: 0,
    bookingsMissed: 0,
    quotesViewed: 0,
    quotesSigned: 0,
    customEvents: 0,
    emailReplies: 0,
    lastTouchAt: null,
  };

  it('SMS consent: a lead capture (it requires consent) or the latest presuasion submission gave it', () => {
    expect(leadScoreFacts(contact, signals).consent.sms).toBe(false);
    expect(leadScoreFacts(contact, { ...signals, captures: 1 }).consent.sms).toBe(true);
    expect(leadScoreFacts(contact, { ...signals, formSubmissions: 1, latestFormConsent: { sms: true, email: null } }).consent.sms).toBe(true);
    expect(leadScoreFacts(contact, { ...signals, formSubmissions: 1, latestFormConsent: { sms: false, email: null } }).consent.sms).toBe(false);
  });

  it('email consent: given by the latest presuasion submission, and lost when the primary email is unsubscribed', () => {
    const given = { ...signals, formSubmissions: 1, latestFormConsent: { sms: null, email: true } };
    expect(leadScoreFacts(contact, given).consent.email).toBe(true);
    expect(leadScoreFacts(contact, { ...given, emailUnsubscribed: true }).consent.email).toBe(false);
    expect(leadScoreFacts(contact, { ...signals, captures: 1 }).consent.email).toBe(false);
  });

  it('came through a funnel: a lead capture, a presuasion submission or a source label', () => {
    expect(leadScoreFacts(contact, signals).inbound).toBe(false);
    expect(leadScoreFacts(contact, { ...signals, captures: 1 }).inbound).toBe(true);
    expect(leadScoreFacts(contact, { ...signals, formSubmissions: 1 }).inbound).toBe(true);
    expect(leadScoreFacts({ ...contact, sourceLabel: 'Salon Habitat' }, signals).inbound).toBe(true);
    expect(leadScoreFacts({ ...contact, sourceLabel: '  ' }, signals).inbound).toBe(false);
  });

  it('engagement counts pass through as recorded; a disqualification date disqualifies', () => {
    const recorded = { ...signals, bookings: 1, quotesViewed: 2, customEvents: 1, formSubmissions: 1, lastTouchAt: NOW };
    expect(leadScoreFacts(contact, recorded).engagement).toEqual({
      bookings: 1,
      bookingsAttended: 0,
      bookingsMissed: 0,
      quotesViewed: 2,
      quotesSigned: 0,
      customEvents: 1,
      emailReplies: 0,
      formSubmissions: 1,
      lastTouchAt: NOW,
    });
    expect(leadScoreFacts({ ...contact, disqualifiedAt: NOW }, signals).disqualified).toBe(true);
  });
});
