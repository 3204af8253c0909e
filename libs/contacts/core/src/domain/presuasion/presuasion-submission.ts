import { AccountId, FieldViolation, parseIsoInstant, ValidationFailedError } from '@leadflow/shared-kernel';
import type { PresuasionAnswerValue } from '@leadflow/contacts-contracts';
import { PHONE_MAX_LENGTH } from '../contact-identity';
import { leadAttribution } from '../lead-capture/lead-attribution';
import { parseLeadEmail, UTM_MEMBERS } from '../lead-capture/lead-capture-input';
import type { LeadContactData } from '../lead-capture/lead-enrichment';
import { parseLeadPhone } from '../lead-capture/lead-phone';
import { isReservedTagName, TAG_NAME_MAX_LENGTH } from '../tag-rules';
import { CONSENT_VALUES_TEXT, readConsent } from './presuasion-consent';

/** Limits of a submission (public-api-v1 › Presuasion submissions as designed here; OpenAPI `PresuasionSubmissionInput`). */
export const PRESUASION_LIMITS = {
  answers: 100,
  /** Characters of the `answers` array serialised as JSON. */
  answersJson: 64_000,
  question: 1000,
  questionId: 200,
  answerText: 5000,
  answerOptions: 50,
  answerOption: 1000,
  outcome: 200,
  formId: 200,
  url: 2048,
  /** How far ahead of the server's clock `submitted_at` may be (clock skew of the tool's server). */
  futureSkewMs: 5 * 60_000,
} as const;

/** A tool slug: lowercase letters, digits, `-` and `_`, 1–100 characters (sent in any casing, stored lowercase). */
export const TOOL_SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;
const EARLIEST_SUBMISSION = Date.UTC(2000, 0, 1);

/** The body of `POST /v1/presuasion/submissions` once its types were checked (camelCase; polymorphic members as sent). */
export interface PresuasionSubmissionInput {
  tool: { slug: string; name: string };
  formId?: string | null;
  answers: { questionId?: string | null; question: string; answer?: unknown; score?: number | null }[];
  score?: number | null;
  outcome?: string | null;
  person: { email?: string | null; phone?: unknown; firstName?: string | null; lastName?: string | null; language?: string | null };
  consent?: { sms?: unknown; email?: unknown; ads?: unknown } | null;
  attribution?: { utm?: Partial<Record<string, string | null>> | null; gclid?: string | null; pageUrl?: string | null; referrer?: string | null } | null;
  submittedAt?: string | null;
}

export interface PresuasionAnswer {
  questionId: string | null;
  question: string;
  answer: PresuasionAnswerValue;
  score: number | null;
}

/** Everything stored about a submission (one row of `contacts.presuasion_submissions`). */
export interface PresuasionSubmissionState {
  id: string;
  accountId: AccountId;
  toolSlug: string;
  toolName: string;
  formId: string | null;
  contactId: string;
  contactWasNew: boolean;
  tagId: string;
  activityId: string;
  answers: PresuasionAnswer[];
  score: number | null;
  outcome: string | null;
  person: { email: string | null; phone: string | null; firstName: string | null; lastName: string | null; language: string | null };
  consent: { sms: boolean | null; email: boolean | null; ads: boolean | null };
  attribution: { utm: Record<string, string>; gclid: string | null; pageUrl: string | null; referrer: string | null };
  submittedAt: Date;
  createdAt: Date;
}

/** A submission once read: what is stored about it, and what it brings to the contact (same shape as a lead's). */
export type ParsedPresuasionSubmission = Omit<PresuasionSubmissionState, 'id' | 'accountId' | 'contactId' | 'contactWasNew' | 'tagId' | 'activityId' | 'createdAt'> & {
  contact: LeadContactData;
};

/** Trimmed text; null for absent, null or blank (read as not sent, like lead capture). */
function text(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : null;
}

function absent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim().length === 0);
}

/** An absolute http(s) URL, or null when it is not one. */
function httpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Reads a presuasion submission (OpenAPI `POST /v1/presuasion/submissions`). Types, lengths and
 * unknown members were checked by the HTTP layer; this applies the rules, all problems at once, as 400
 * `validation_error` with `details` an array of `{ field, reason, message }`:
 * - the person: email normalised like lead capture (`person.email` `invalid_format`), phone normalised
 *   like lead capture, a string or a positive integer, to E.164 (`person.phone` `invalid_phone`,
 *   `too_long` over 50 characters); without either, `person.email` and `person.phone` `identity_required`;
 * - the tool: slug lowercased then `[a-z0-9][a-z0-9_-]{0,99}` (`tool.slug` `invalid_format`), name
 *   1–100 characters not starting with `Campagne :` (`tool.name` `required`, `reserved_prefix`): it names the tool's tag;
 * - consents: see `readConsent` (`consent.<name>` `invalid_value`);
 * - answers: each value text (≤ 5000), a finite number, a boolean, a list of ≤ 50 texts (≤ 1000 each) or
 *   null (`answers[i].answer` `invalid_type`, `too_long`, `too_many`); the whole list at most 64,000
 *   characters of JSON (`answers` `too_large`);
 * - attribution: `page_url` and `referrer` absolute http(s) URLs (`invalid_format`); a gclid is kept only
 *   without refused ad consent (lead capture's first-touch rule, see `leadAttribution`);
 * - `submitted_at`: an ISO 8601 instant with an offset (`invalid_datetime`), not before 2000 nor more than
 *   5 minutes ahead of `now` (`out_of_range`); absent means `now`.
 * Null and blank optional values read as not sent.
 */
export function parsePresuasionSubmission(input: PresuasionSubmissionInput, now: Date): ParsedPresuasionSubmission {
  const violations: FieldViolation[] = [];
  const violation = (field: string, reason: string, message: string) => violations.push({ field, reason, message });

  const slug = input.tool.slug.trim().toLowerCase();
  if (!TOOL_SLUG_PATTERN.test(slug)) violation('tool.slug', 'invalid_format', 'tool.slug must be 1 to 100 characters: letters, digits, - and _, starting with a letter or digit.');
  const toolName = input.tool.name.trim();
  if (toolName.length === 0) violation('tool.name', 'required', 'tool.name is required: it names the tool’s tag.');
  else if (toolName.length > TAG_NAME_MAX_LENGTH) violation('tool.name', 'too_long', `tool.name must be at most ${TAG_NAME_MAX_LENGTH} characters.`);
  else if (isReservedTagName(toolName)) violation('tool.name', 'reserved_prefix', 'Names beginning with "Campagne :" are reserved for campaign tags.');

  const person = input.person;
  let email: string | null = null;
  if (!absent(person.email)) {
    email = parseLeadEmail(person.email);
    if (email === null) violation('person.email', 'invalid_format', 'person.email is not a valid address.');
  }
  let phone: string | null = null;
  if (!absent(person.phone)) {
    if (typeof person.phone === 'string' && person.phone.length > PHONE_MAX_LENGTH) {
      violation('person.phone', 'too_long', `person.phone must be at most ${PHONE_MAX_LENGTH} characters.`);
    } else {
      const parsed = parseLeadPhone(person.phone);
      if (parsed.ok) phone = parsed.value;
      else violation('person.phone', 'invalid_phone', parsed.message.replace(/^phone /, 'person.phone '));
    }
  }
  if (absent(person.email) && absent(person.phone)) {
    const message = 'person.email or person.phone is required to find or create the contact.';
    violation('person.email', 'identity_required', message);
    violation('person.phone', 'identity_required', message);
  }

  const consent = { sms: null as boolean | null, email: null as boolean | null, ads: null as boolean | null };
  for (const name of ['sms', 'email', 'ads'] as const) {
    const reading = readConsent(input.consent?.[name]);
    if (reading.ok) consent[name] = reading.value;
    else violation(`consent.${name}`, 'invalid_value', `consent.${name} must be ${CONSENT_VALUES_TEXT} (or null when not asked).`);
  }

  const answers = input.answers.map((item, index): PresuasionAnswer => {
    const field = `answers[${index}].answer`;
    return { questionId: text(item.questionId), question: item.question.trim(), answer: answerValue(item.answer, field, violation), score: item.score ?? null };
  });
  input.answers.forEach((item, index) => {
    if (item.question.trim().length === 0) violation(`answers[${index}].question`, 'required', 'Each answer needs its question.');
  });
  if (JSON.stringify(answers).length > PRESUASION_LIMITS.answersJson) {
    violation('answers', 'too_large', `answers must be at most ${PRESUASION_LIMITS.answersJson} characters once serialised as JSON.`);
  }

  const utm: Record<string, string> = {};
  for (const member of UTM_MEMBERS) {
    const value = text(input.attribution?.utm?.[member] ?? null);
    if (value !== null) utm[member] = value;
  }
  const url = (name: 'pageUrl' | 'referrer', field: string): string | null => {
    const value = text(input.attribution?.[name] ?? null);
    if (value === null) return null;
    const checked = httpUrl(value);
    if (checked === null) violation(field, 'invalid_format', `${field} must be an absolute http or https URL.`);
    return checked;
  };
  const pageUrl = url('pageUrl', 'attribution.page_url');
  const referrer = url('referrer', 'attribution.referrer');
  const sentGclid = text(input.attribution?.gclid ?? null);

  let submittedAt = now;
  if (!absent(input.submittedAt)) {
    const instant = parseIsoInstant((input.submittedAt as string).trim());
    if (instant === null) violation('submitted_at', 'invalid_datetime', 'submitted_at must be an ISO 8601 date and time with an offset, e.g. 2027-03-15T14:00:00Z.');
    else if (instant.getTime() > now.getTime() + PRESUASION_LIMITS.futureSkewMs || instant.getTime() < EARLIEST_SUBMISSION) {
      violation('submitted_at', 'out_of_range', 'submitted_at must not be in the future (5 minutes of clock skew are allowed) nor before 2000.');
    } else submittedAt = instant;
  }

  if (violations.length > 0) throw new ValidationFailedError(violations);

  const adsConsent = consent.ads !== false;
  const firstName = text(person.firstName);
  const lastName = text(person.lastName);
  return {
    toolSlug: slug,
    toolName,
    formId: text(input.formId),
    answers,
    score: input.score ?? null,
    outcome: text(input.outcome),
    person: { email, phone, firstName, lastName, language: text(person.language) },
    consent,
    attribution: { utm, gclid: adsConsent ? sentGclid : null, pageUrl, referrer },
    submittedAt,
    contact: {
      firstName,
      lastName,
      email,
      phone,
      customFields: {},
      address: {},
      attribution: leadAttribution(utm, sentGclid, adsConsent),
      sourceLabel: toolName,
      notes: null,
    },
  };
}

/** An answer's value (see {@link parsePresuasionSubmission}); absent reads as null (a skipped question). */
function answerValue(value: unknown, field: string, violation: (field: string, reason: string, message: string) => void): PresuasionAnswerValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    violation(field, 'invalid_type', `${field} must be a finite number.`);
    return null;
  }
  if (typeof value === 'string') {
    if (value.length <= PRESUASION_LIMITS.answerText) return value;
    violation(field, 'too_long', `${field} must be at most ${PRESUASION_LIMITS.answerText} characters.`);
    return null;
  }
  if (Array.isArray(value)) {
    if (value.length > PRESUASION_LIMITS.answerOptions) {
      violation(field, 'too_many', `${field} may list at most ${PRESUASION_LIMITS.answerOptions} options.`);
      return null;
    }
    const bad = value.findIndex((option) => typeof option !== 'string');
    if (bad >= 0) {
      violation(`${field}[${bad}]`, 'invalid_type', 'A list answer holds texts only.');
      return null;
    }
    const long = value.findIndex((option: string) => option.length > PRESUASION_LIMITS.answerOption);
    if (long >= 0) {
      violation(`${field}[${long}]`, 'too_long', `Each option must be at most ${PRESUASION_LIMITS.answerOption} characters.`);
      return null;
    }
    return [...value] as string[];
  }
  violation(field, 'invalid_type', `${field} must be a text, a number, a boolean, a list of texts or null.`);
  return null;
}
