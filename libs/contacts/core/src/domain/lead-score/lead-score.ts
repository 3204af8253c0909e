/**
 * The lead score (issue 13, item 6; public-api-v1 › Deal and pipeline stage: "stage, value and
 * score"): an integer from 0 to 100 saying how likely a contact is to buy, from what Leadflow knows
 * of it. Five parts, each capped, added up:
 *
 * | Part | Max | Rules (points) |
 * |---|---|---|
 * | Profile completeness | 20 | email 5 · phone 5 · a first or last name 4 · company 2 · address (street address, postal code or city) 2 · deal value 2 |
 * | Consent | 10 | SMS consent 6 (lead capture requires it; a presuasion submission that gave it) · email consent 4 (given in a presuasion submission, and the primary email not unsubscribed) |
 * | Source and attribution | 10 | came through a funnel (lead capture, presuasion submission, a source label) 4 · campaign attribution (any utm member) 3 · ad click id (`gclid`, kept only with ads consent) 3 |
 * | Recency | 15 | last touch (creation, capture, submission or engagement) at most 7 days ago 15 · 30 days 10 · 90 days 5 · older 0 |
 * | Engagement | 45 | a booking not cancelled 10 · a booking attended (outcome `completed`) +5 · only no-shows (outcome `no_show`, none attended) −5 · a quote viewed 8 · a quote signed 12 · custom events 2 each (max 6) · email replies 4 each (max 8) · presuasion submissions 4 each (max 8); the part is kept within 0–45 |
 *
 * A disqualified contact scores 0. The parts sum to at most 100.
 *
 * The score only changes when its facts change or when time moves the last touch into an older
 * recency band: {@link LeadScore.reviewAt} is that next band boundary (null once the last touch is
 * more than 90 days old, or for a disqualified contact), so a scheduled pass can recompute exactly the
 * scores due.
 */

/** The contact's own fields the profile part reads (a structural subset of the contact state). */
export interface LeadProfile {
  email: string | null;
  phone: string | null;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  /** CAD cents. */
  dealValueCents: number | null;
  addressParts: { address: string | null; postalCode: string | null; city: string | null };
}

/** Consents known for the contact: true only when given (unknown and refused read the same). */
export interface LeadConsent {
  sms: boolean;
  /** Given and the primary email not on the account's unsubscribe list. */
  email: boolean;
}

/** What the contact did, counted once per thing (a quote viewed twice counts once). */
export interface LeadEngagement {
  /** Bookings made and not cancelled. */
  bookings: number;
  /** Bookings whose latest outcome is `completed`. */
  bookingsAttended: number;
  /** Bookings whose latest outcome is `no_show`. */
  bookingsMissed: number;
  /** Distinct quotes the lead opened. */
  quotesViewed: number;
  /** Distinct quotes the lead signed. */
  quotesSigned: number;
  customEvents: number;
  emailReplies: number;
  /** Presuasion submissions (quizzes, calculators, pre-qualification forms). */
  formSubmissions: number;
  /** Latest engagement, capture or submission; null when none. */
  lastTouchAt: Date | null;
}

/** Everything the score is computed from. */
export interface LeadScoreFacts {
  profile: LeadProfile;
  consent: LeadConsent;
  /** Came through a funnel: lead capture, a presuasion submission, or a source label. */
  inbound: boolean;
  /** First-touch attribution as stored on the contact (`source`, `medium`, …, `gclid`). */
  attribution: Readonly<Record<string, unknown>>;
  engagement: LeadEngagement;
  createdAt: Date;
  disqualified: boolean;
}

export interface LeadScoreParts {
  profile: number;
  consent: number;
  source: number;
  recency: number;
  engagement: number;
}

export interface LeadScore {
  /** 0–100. */
  score: number;
  parts: LeadScoreParts;
  /** When the recency part next drops (the score is due for a recompute then), or null. */
  reviewAt: Date | null;
}

export const LEAD_SCORE_WEIGHTS = {
  profile: { email: 5, phone: 5, name: 4, company: 2, address: 2, dealValue: 2 },
  consent: { sms: 6, email: 4 },
  source: { inbound: 4, campaign: 3, adClick: 3 },
  /** Points while the last touch is at most `days` old (first match). */
  recency: [
    { days: 7, points: 15 },
    { days: 30, points: 10 },
    { days: 90, points: 5 },
  ],
  engagement: {
    max: 45,
    booking: 10,
    attended: 5,
    noShow: -5,
    quoteViewed: 8,
    quoteSigned: 12,
    customEvent: { each: 2, max: 6 },
    emailReply: { each: 4, max: 8 },
    formSubmission: { each: 4, max: 8 },
  },
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

const UTM_MEMBERS = ['source', 'medium', 'campaign', 'term', 'content'];

function filled(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

/** Profile completeness, 0–20. */
export function profilePoints(profile: LeadProfile): number {
  const weights = LEAD_SCORE_WEIGHTS.profile;
  const address = profile.addressParts;
  return (
    (filled(profile.email) ? weights.email : 0) +
    (filled(profile.phone) ? weights.phone : 0) +
    (filled(profile.firstName) || filled(profile.lastName) ? weights.name : 0) +
    (filled(profile.company) ? weights.company : 0) +
    (filled(address.address) || filled(address.postalCode) || filled(address.city) ? weights.address : 0) +
    (profile.dealValueCents !== null && profile.dealValueCents > 0 ? weights.dealValue : 0)
  );
}

/** Consent, 0–10. */
export function consentPoints(consent: LeadConsent): number {
  const weights = LEAD_SCORE_WEIGHTS.consent;
  return (consent.sms ? weights.sms : 0) + (consent.email ? weights.email : 0);
}

/** Source and attribution, 0–10. */
export function sourcePoints(inbound: boolean, attribution: Readonly<Record<string, unknown>>): number {
  const weights = LEAD_SCORE_WEIGHTS.source;
  const campaign = UTM_MEMBERS.some((member) => typeof attribution[member] === 'string' && filled(attribution[member] as string));
  const adClick = typeof attribution['gclid'] === 'string' && filled(attribution['gclid'] as string);
  return (inbound ? weights.inbound : 0) + (campaign ? weights.campaign : 0) + (adClick ? weights.adClick : 0);
}

/** The latest of the creation and the last touch. */
export function lastTouchOf(facts: Pick<LeadScoreFacts, 'createdAt' | 'engagement'>): Date {
  const touch = facts.engagement.lastTouchAt;
  return touch !== null && touch.getTime() > facts.createdAt.getTime() ? touch : facts.createdAt;
}

/** Recency, 0–15, and when it next drops (null when it is 0 already). A last touch in the future reads as now. */
export function recencyPoints(lastTouch: Date, now: Date): { points: number; reviewAt: Date | null } {
  const age = Math.max(0, now.getTime() - lastTouch.getTime());
  for (const band of LEAD_SCORE_WEIGHTS.recency) {
    const boundary = band.days * DAY_MS;
    if (age <= boundary) return { points: band.points, reviewAt: new Date(lastTouch.getTime() + boundary + 1) };
  }
  return { points: 0, reviewAt: null };
}

function capped(count: number, rule: { each: number; max: number }): number {
  return Math.min(Math.max(0, count) * rule.each, rule.max);
}

/** Engagement, 0–45. */
export function engagementPoints(engagement: LeadEngagement): number {
  const weights = LEAD_SCORE_WEIGHTS.engagement;
  let points = 0;
  if (engagement.bookings > 0) points += weights.booking;
  if (engagement.bookingsAttended > 0) points += weights.attended;
  else if (engagement.bookingsMissed > 0) points += weights.noShow;
  if (engagement.quotesViewed > 0 || engagement.quotesSigned > 0) points += weights.quoteViewed;
  if (engagement.quotesSigned > 0) points += weights.quoteSigned;
  points += capped(engagement.customEvents, weights.customEvent);
  points += capped(engagement.emailReplies, weights.emailReply);
  points += capped(engagement.formSubmissions, weights.formSubmission);
  return Math.min(Math.max(points, 0), weights.max);
}

/** The score of `facts` at `now` (see the module's table). Pure: the same facts and time give the same score. */
export function scoreLead(facts: LeadScoreFacts, now: Date): LeadScore {
  if (facts.disqualified) return { score: 0, parts: { profile: 0, consent: 0, source: 0, recency: 0, engagement: 0 }, reviewAt: null };
  const recency = recencyPoints(lastTouchOf(facts), now);
  const parts: LeadScoreParts = {
    profile: profilePoints(facts.profile),
    consent: consentPoints(facts.consent),
    source: sourcePoints(facts.inbound, facts.attribution),
    recency: recency.points,
    engagement: engagementPoints(facts.engagement),
  };
  const total = parts.profile + parts.consent + parts.source + parts.recency + parts.engagement;
  return { score: Math.min(100, Math.max(0, Math.round(total))), parts, reviewAt: recency.reviewAt };
}

/** No engagement yet (a contact being created). */
export const NO_ENGAGEMENT: LeadEngagement = {
  bookings: 0,
  bookingsAttended: 0,
  bookingsMissed: 0,
  quotesViewed: 0,
  quotesSigned: 0,
  customEvents: 0,
  emailReplies: 0,
  formSubmissions: 0,
  lastTouchAt: null,
};
