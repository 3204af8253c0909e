import type { LeadProfile, LeadScoreFacts } from './lead-score';

/**
 * What Leadflow recorded about a contact, as the score's facts are read from it (the worker's
 * recompute): counts from the activity log and the contacts schema, before the rules of
 * {@link leadScoreFacts} turn them into consent, source and engagement.
 */
export interface LeadSignals {
  /** Lead captures recorded on the contact (each one required SMS consent). */
  captures: number;
  /** Presuasion submissions recorded on the contact. */
  formSubmissions: number;
  /** Consents of the latest presuasion submission (true given, false refused, null not asked), or null without any. */
  latestFormConsent: { sms: boolean | null; email: boolean | null } | null;
  /** The primary email is on the account's unsubscribe list. */
  emailUnsubscribed: boolean;
  /** Bookings made and not cancelled. */
  bookings: number;
  /** Bookings whose latest outcome is `completed` / `no_show`. */
  bookingsAttended: number;
  bookingsMissed: number;
  /** Distinct quotes viewed / signed by the lead. */
  quotesViewed: number;
  quotesSigned: number;
  customEvents: number;
  emailReplies: number;
  /** Latest capture, submission or engagement entry, or null. */
  lastTouchAt: Date | null;
}

/** The contact's own fields the facts read (a structural subset of the contact state). */
export interface LeadScoreContact extends LeadProfile {
  attribution: Readonly<Record<string, unknown>>;
  sourceLabel: string | null;
  disqualifiedAt: Date | null;
  createdAt: Date;
}

/**
 * The facts of the score (domain/lead-score) from the contact and its signals:
 * - SMS consent: a lead capture (consent is required there) or the latest presuasion submission gave it;
 * - email consent: the latest presuasion submission gave it and the primary email is not unsubscribed;
 * - came through a funnel: a lead capture, a presuasion submission, or a source label;
 * - engagement: the signals' counts as they are.
 */
export function leadScoreFacts(contact: LeadScoreContact, signals: LeadSignals): LeadScoreFacts {
  return {
    profile: contact,
    consent: {
      sms: signals.captures > 0 || signals.latestFormConsent?.sms === true,
      email: signals.latestFormConsent?.email === true && !signals.emailUnsubscribed,
    },
    inbound: signals.captures > 0 || signals.formSubmissions > 0 || (contact.sourceLabel !== null && contact.sourceLabel.trim().length > 0),
    attribution: contact.attribution,
    engagement: {
      bookings: signals.bookings,
      bookingsAttended: signals.bookingsAttended,
      bookingsMissed: signals.bookingsMissed,
      quotesViewed: signals.quotesViewed,
      quotesSigned: signals.quotesSigned,
      customEvents: signals.customEvents,
      emailReplies: signals.emailReplies,
      formSubmissions: signals.formSubmissions,
      lastTouchAt: signals.lastTouchAt,
    },
    createdAt: contact.createdAt,
    disqualified: contact.disqualifiedAt !== null,
  };
}
