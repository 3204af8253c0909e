/**
 * Read shapes of the contacts context (public-api-v1 › Contact, Tag; operator-api › Contact read
 * shape). JSON-safe: timestamps are ISO 8601 UTC strings with milliseconds.
 */

/** A tag as `GET /v1/tags` and `client_contact_tags` show it. */
export interface TagView {
  id: string;
  name: string;
  /** `#RRGGBB`, default `#6b7280`. */
  color: string;
  description: string | null;
  category: string | null;
  /** `campaign:<slug>` for campaign tags (managed by the service), else null. */
  system_key: string | null;
  created_at: string;
}

/** A custom field value as stored and read: text-like types are strings, `number` a number, `boolean` a boolean. */
export type CustomFieldValue = string | number | boolean;

/** A contact read (`{ data: ContactView }`). */
export interface ContactView {
  id: string;
  first_name: string | null;
  last_name: string | null;
  /** Lowercase. */
  email: string | null;
  /** E.164 when it normalised, else null. */
  phone: string | null;
  company: string | null;
  /** CAD dollars (stored as cents), positive, or null. */
  deal_value: number | null;
  /** Keyed by custom field definition id; `{}` when none. */
  custom_fields: Record<string, CustomFieldValue>;
  is_priority: boolean;
  notes: string | null;
  system_id: string;
  /** `api` for contacts created through the public API. */
  source: string;
  /**
   * Lead score, integer 0–100 (contacts-core › domain/lead-score: profile, consent, source and
   * attribution, recency, engagement). Set at creation; recomputed by the worker within seconds of
   * each event that changes it, and when its recency part drops (checked hourly).
   */
  score: number;
  archived_at: string | null;
  disqualified_at: string | null;
  created_at: string;
  updated_at: string;
  /** Present with `expand=tags`, sorted by name. */
  client_contact_tags?: TagView[];
}

/** What the operator lifecycle actions answer: the contact acted on, with its merge state. */
export interface ContactLifecycleView extends ContactView {
  /** The surviving contact when this one was absorbed by a merge, else null. */
  merged_into_contact_id: string | null;
}

/** Types of custom field definitions (operator-api › blueprint value sets). */
export const CUSTOM_FIELD_TYPES = ['text', 'long_text', 'url', 'email', 'phone', 'number', 'select', 'date', 'boolean'] as const;

export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export function isCustomFieldType(value: unknown): value is CustomFieldType {
  return typeof value === 'string' && (CUSTOM_FIELD_TYPES as readonly string[]).includes(value);
}

/** A definition as `include=custom_field_definitions` shows it (`meta.custom_field_definitions`). */
export interface CustomFieldDefinitionView {
  id: string;
  name: string;
  type: CustomFieldType;
  /** Option values of a `select` field, else null. */
  options: string[] | null;
}

/** One item of the blueprint's `custom_fields` member. */
export interface CustomFieldDefinitionSpec {
  name: string;
  type: CustomFieldType;
  /** Required (non-empty) for `select`; ignored for other types. */
  options?: string[] | null;
}
