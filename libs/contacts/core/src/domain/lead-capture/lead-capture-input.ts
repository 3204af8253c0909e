import { FieldViolation, normalizeEmail } from '@leadflow/shared-kernel';
import { LeadCaptureRejectedError, LeadCaptureRejectionCode } from '../contacts.errors';
import type { ContactAddress } from '../contact-state';
import { dealValueToCents } from '../deal-value';
import { isReservedTagName, TAG_NAME_MAX_LENGTH } from '../tag-rules';
import { IgnoredFields } from './ignored-fields';
import { isTruthyConsent } from './lead-consent';
import { echoValue, parseLeadPhone } from './lead-phone';

/** Members of the `pipeline` block (nested, or flat as `pipeline.<member>` root keys). */
export const PIPELINE_MEMBERS = ['pipeline_slug', 'stage_slug', 'deal_value', 'expected_close_date', 'assigned_sales_rep_email'] as const;
export type PipelineMember = (typeof PIPELINE_MEMBERS)[number];

/** Members of `utm` taken for attribution (the spec names source, medium, campaign; term and content are the other UTM parameters). */
export const UTM_MEMBERS = ['source', 'medium', 'campaign', 'term', 'content'] as const;

/** Address members: they complete an existing contact without overwriting filled values. */
export const ADDRESS_MEMBERS: readonly [string, keyof ContactAddress][] = [
  ['address', 'address'],
  ['postal_code', 'postalCode'],
  ['address_place_id', 'addressPlaceId'],
  ['street', 'street'],
  ['city', 'city'],
  ['sector', 'sector'],
  ['province', 'province'],
  ['country', 'country'],
];

const TEXT_MAX = { name: 200, source_label: 200, notes: 10_000, address: 500, gclid: 500, utm: 500 } as const;
const TAGS_MAX = 50;
const ROOT_MEMBERS = new Set([
  'phone',
  'sms_consent',
  'first_name',
  'last_name',
  'email',
  'source_label',
  'utm',
  'gclid',
  'notes',
  'tags',
  'qualification_answers',
  'pipeline',
  'custom_fields',
  'meta',
  'system_id',
  'customData',
  ...ADDRESS_MEMBERS.map(([member]) => member),
]);
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;
/** NUL (refused by PostgreSQL text and jsonb) and unpaired UTF-16 surrogates (refused by jsonb). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is removed
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// eslint-disable-next-line no-control-regex -- control characters are never part of an email address
const CONTROL = /[\u0000-\u001f\u007f]/;
const QUALIFICATION_MAX_DEPTH = 8;
const QUALIFICATION_MAX_CHARS = 20_000;

/** A string safe to store: NUL removed, unpaired surrogates replaced by U+FFFD. */
export function cleanText(text: string): string {
  return text.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');
}

/** A JSON value with every string (keys included) cleaned; undefined when nested deeper than `depth`. */
function cleanJson(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth <= 0) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((item) => cleanJson(item, depth - 1));
    return items.includes(undefined) ? undefined : items;
  }
  const entries = Object.entries(value).map(([key, item]) => [cleanText(key), cleanJson(item, depth - 1)] as const);
  return entries.some(([, item]) => item === undefined) ? undefined : Object.fromEntries(entries);
}

/**
 * `email` of lead capture (and of every route that resolves a person the same way): a string without
 * control characters that is an address, cleaned (see {@link cleanText}) and normalised (lowercase) by
 * the kernel's `normalizeEmail`; null when it is not one (the caller's `invalid_email` refusal).
 */
export function parseLeadEmail(raw: unknown): string | null {
  return typeof raw === 'string' && !CONTROL.test(raw) ? normalizeEmail(cleanText(raw)) : null;
}

/** What the request asks of the pipeline; null members were not sent (or unusable, then named `invalid_value`). */
export interface LeadPipelineRequest {
  pipelineSlug: string | null;
  stageSlug: string | null;
  dealValueCents: number | null;
  expectedCloseDate: string | null;
  salesRepEmail: string | null;
  /** Members sent with a usable value, for `existing_contact_kept`. */
  sent: PipelineMember[];
}

/** A capture body once read: everything the rules need, and the members ignored so far. */
export interface ParsedLead {
  /** E.164. */
  phone: string;
  /** Lowercase, or null when not sent. */
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  sourceLabel: string | null;
  notes: string | null;
  /** UTM members sent (`source`, `medium`…), strings. */
  utm: Record<string, string>;
  gclid: string | null;
  /** False when `meta.ads_consent` refuses ad tracking: no gclid is kept. */
  adsConsent: boolean;
  /** Tag names to apply (trimmed, deduplicated, reserved ones left out). */
  tags: string[];
  qualificationAnswers: unknown[] | null;
  pipeline: LeadPipelineRequest;
  /** `custom_fields` as sent (keyed by definition name), resolved against the definitions later. */
  customFields: Record<string, unknown>;
  address: Partial<ContactAddress>;
  /** `system_id` as sent (undefined when absent). */
  systemId: unknown;
  ignored: IgnoredFields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Null and blank strings read as "not sent". */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim().length === 0);
}

/**
 * Reads a `POST /v1/leads/capture` body (public-api-v1 › Lead capture input; Endpoints › Leads).
 *
 * Refusals (422, simplified body, `details` = `[{ field, reason }]`, all the problems found, code of
 * the first): a body that is not a JSON object → `invalid_payload` (field `""`); `phone` missing or
 * not a number → `invalid_phone`; `email` not an address → `invalid_email`; no consent →
 * `missing_consent` (field `sms_consent`, also when looked for in `customData`).
 *
 * Everything else never loses the lead: unknown members are named `unknown_field`, the flat copy of a
 * member also sent in the nested `pipeline` block `duplicate_field`, reserved `Campagne :` tags
 * `reserved_tag`, unusable optional values (wrong type, too long, a deal value that is not a positive
 * amount, a date that is not YYYY-MM-DD) `invalid_value`. Null and blank values read as not sent.
 */
export function parseLeadCapture(body: unknown): ParsedLead {
  if (!isPlainObject(body)) {
    const kind = Array.isArray(body) ? 'an array' : body === undefined ? 'empty' : `the ${typeof body} ${echoValue(body)}`;
    throw new LeadCaptureRejectedError('invalid_payload', `The body must be a JSON object describing one lead; it is ${kind}.`, [
      { field: '', reason: 'invalid_payload' },
    ]);
  }
  const ignored = new IgnoredFields();
  const violations: (FieldViolation & { code: LeadCaptureRejectionCode })[] = [];

  const phone = parseLeadPhone(body.phone);
  if (!phone.ok) violations.push({ code: 'invalid_phone', field: 'phone', reason: phone.reason, message: phone.message });

  let email: string | null = null;
  if (!isAbsent(body.email)) {
    email = parseLeadEmail(body.email);
    if (email === null) {
      violations.push({ code: 'invalid_email', field: 'email', reason: 'invalid_email', message: `email "${echoValue(body.email)}" is not a valid address.` });
    }
  }

  const customData = body.customData;
  const rootHasConsent = body.sms_consent !== undefined && body.sms_consent !== null;
  const consent = rootHasConsent ? body.sms_consent : isPlainObject(customData) ? customData.sms_consent : undefined;
  if (!isTruthyConsent(consent)) {
    const absent = consent === undefined || consent === null;
    violations.push({
      code: 'missing_consent',
      field: 'sms_consent',
      reason: absent ? 'required' : 'missing_consent',
      message: absent
        ? 'sms_consent is required: send true (or yes, oui, on, 1, y, o) at the root or in customData.'
        : `sms_consent "${echoValue(consent)}" is not a consent: send true or one of yes, oui, on, 1, y, o.`,
    });
  }

  if (violations.length > 0) {
    throw new LeadCaptureRejectedError(
      violations[0].code,
      violations[0].message ?? 'The lead cannot be captured.',
      violations.map(({ field, reason }) => ({ field, reason })),
    );
  }

  const text = (member: string, max: number, value: unknown = body[member], field = member): string | null => {
    if (isAbsent(value)) return null;
    if (typeof value !== 'string' || value.trim().length > max) {
      ignored.add(field, 'invalid_value');
      return null;
    }
    return cleanText(value.trim());
  };

  const nested = isPlainObject(body.pipeline) ? body.pipeline : {};
  const pipelineValues = new Map<PipelineMember, unknown>();
  const parsed: ParsedLead = {
    phone: (phone as { value: string }).value,
    email,
    firstName: null,
    lastName: null,
    sourceLabel: null,
    notes: null,
    utm: {},
    gclid: null,
    adsConsent: true,
    tags: [],
    qualificationAnswers: null,
    pipeline: { pipelineSlug: null, stageSlug: null, dealValueCents: null, expectedCloseDate: null, salesRepEmail: null, sent: [] },
    customFields: {},
    address: {},
    systemId: body.system_id,
    ignored,
  };

  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('pipeline.')) {
      const member = key.slice('pipeline.'.length);
      if (!(PIPELINE_MEMBERS as readonly string[]).includes(member)) ignored.add(key, 'unknown_field');
      else if (nested[member] !== undefined && nested[member] !== null) ignored.add(key, 'duplicate_field');
      else pipelineValues.set(member as PipelineMember, value);
      continue;
    }
    if (!ROOT_MEMBERS.has(key)) {
      ignored.add(key, 'unknown_field');
      continue;
    }
    switch (key) {
      case 'first_name':
        parsed.firstName = text(key, TEXT_MAX.name);
        break;
      case 'last_name':
        parsed.lastName = text(key, TEXT_MAX.name);
        break;
      case 'source_label':
        parsed.sourceLabel = text(key, TEXT_MAX.source_label);
        break;
      case 'notes':
        parsed.notes = text(key, TEXT_MAX.notes);
        break;
      case 'gclid':
        parsed.gclid = text(key, TEXT_MAX.gclid);
        break;
      case 'utm':
        if (isAbsent(value)) break;
        if (!isPlainObject(value)) {
          ignored.add(key, 'invalid_value');
          break;
        }
        for (const [member, memberValue] of Object.entries(value)) {
          if (!(UTM_MEMBERS as readonly string[]).includes(member)) ignored.add(`utm.${member}`, 'unknown_field');
          else {
            const kept = text(member, TEXT_MAX.utm, memberValue, `utm.${member}`);
            if (kept !== null) parsed.utm[member] = kept;
          }
        }
        break;
      case 'meta':
        if (isAbsent(value)) break;
        if (!isPlainObject(value)) {
          ignored.add(key, 'invalid_value');
          break;
        }
        for (const [member, memberValue] of Object.entries(value)) {
          if (member !== 'ads_consent') ignored.add(`meta.${member}`, 'unknown_field');
          // Privacy first: anything but absent or a consent value refuses ad tracking.
          else if (memberValue !== undefined && memberValue !== null) parsed.adsConsent = isTruthyConsent(memberValue);
        }
        break;
      case 'tags':
        if (isAbsent(value)) break;
        if (!Array.isArray(value)) {
          ignored.add(key, 'invalid_value');
          break;
        }
        value.forEach((tag, index) => {
          const field = `tags[${index}]`;
          if (isAbsent(tag)) return;
          if (typeof tag !== 'string' || tag.trim().length > TAG_NAME_MAX_LENGTH || index >= TAGS_MAX) ignored.add(field, 'invalid_value');
          else if (isReservedTagName(tag)) ignored.add(field, 'reserved_tag');
          else if (!parsed.tags.includes(cleanText(tag.trim()))) parsed.tags.push(cleanText(tag.trim()));
        });
        break;
      case 'qualification_answers':
        if (isAbsent(value)) break;
        {
          const cleaned = Array.isArray(value) ? cleanJson(value, QUALIFICATION_MAX_DEPTH) : undefined;
          if (Array.isArray(cleaned) && JSON.stringify(cleaned).length <= QUALIFICATION_MAX_CHARS) parsed.qualificationAnswers = cleaned;
          else ignored.add(key, 'invalid_value');
        }
        break;
      case 'pipeline':
        if (isAbsent(value)) break;
        if (!isPlainObject(value)) {
          ignored.add(key, 'invalid_value');
          break;
        }
        for (const [member, memberValue] of Object.entries(value)) {
          if ((PIPELINE_MEMBERS as readonly string[]).includes(member)) pipelineValues.set(member as PipelineMember, memberValue);
          else ignored.add(`pipeline.${member}`, 'unknown_field');
        }
        break;
      case 'custom_fields':
        if (isAbsent(value)) break;
        if (isPlainObject(value)) parsed.customFields = value;
        else ignored.add(key, 'invalid_value');
        break;
      case 'customData':
        if (isAbsent(value)) break;
        if (!isPlainObject(value)) {
          ignored.add(key, 'invalid_value', 'connector');
          break;
        }
        for (const member of Object.keys(value)) {
          if (member !== 'sms_consent') ignored.add(`customData.${member}`, 'unknown_field', 'connector');
          else if (rootHasConsent) ignored.add('customData.sms_consent', 'duplicate_field', 'connector');
        }
        break;
      default: {
        const address = ADDRESS_MEMBERS.find(([member]) => member === key);
        if (address) {
          const kept = text(key, TEXT_MAX.address);
          if (kept !== null) parsed.address[address[1]] = kept;
        }
        // phone, email, sms_consent, system_id: read above or by the handler.
      }
    }
  }
  parsed.pipeline = readPipeline(pipelineValues, ignored);
  return parsed;
}

/** The pipeline members, nested or flat (nested wins; the flat copy was named `duplicate_field`). */
function readPipeline(values: Map<PipelineMember, unknown>, ignored: IgnoredFields): LeadPipelineRequest {
  const request: LeadPipelineRequest = { pipelineSlug: null, stageSlug: null, dealValueCents: null, expectedCloseDate: null, salesRepEmail: null, sent: [] };
  for (const member of PIPELINE_MEMBERS) {
    const value = values.get(member);
    if (isAbsent(value)) continue;
    const field = `pipeline.${member}`;
    let usable = true;
    switch (member) {
      case 'pipeline_slug':
      case 'stage_slug': {
        const slug = typeof value === 'string' && value.trim().length <= 100 ? cleanText(value.trim().toLowerCase()) : null;
        if (slug === null) usable = false;
        else if (member === 'pipeline_slug') request.pipelineSlug = slug;
        else request.stageSlug = slug;
        break;
      }
      case 'deal_value': {
        const cents = typeof value === 'number' || typeof value === 'string' ? dealValueToCents(value) : null;
        if (cents === null) usable = false;
        else request.dealValueCents = cents;
        break;
      }
      case 'expected_close_date': {
        const date = typeof value === 'string' ? calendarDate(value.trim()) : null;
        if (date === null) usable = false;
        else request.expectedCloseDate = date;
        break;
      }
      case 'assigned_sales_rep_email':
        if (typeof value !== 'string') usable = false;
        else request.salesRepEmail = value.trim().toLowerCase();
        break;
    }
    if (usable) request.sent.push(member);
    else ignored.add(field, 'invalid_value');
  }
  return request;
}

/** `YYYY-MM-DD` (the date part of an ISO timestamp is accepted) when it is a real calendar date. */
export function calendarDate(value: string): string | null {
  const match = DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? `${match[1]}-${match[2]}-${match[3]}` : null;
}
