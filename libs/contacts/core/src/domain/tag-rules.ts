import { FieldViolation } from '@leadflow/shared-kernel';

/** Default tag color (public-api-v1 › Tag). */
export const DEFAULT_TAG_COLOR = '#6b7280';
export const TAG_NAME_MAX_LENGTH = 100;
export const TAG_DESCRIPTION_MAX_LENGTH = 1000;
export const TAG_CATEGORY_MAX_LENGTH = 100;

const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** `Campagne :` at the start, any casing, any (also non-breaking or full-width) spacing around the colon. */
const RESERVED_PREFIX = /^\s*campagne\s*:/iu;

/** True when `name` begins with the reserved campaign prefix `Campagne :` in any casing and spacing. */
export function isReservedTagName(name: string): boolean {
  return RESERVED_PREFIX.test(name.normalize('NFKC'));
}

export interface TagInput {
  name?: string | null;
  color?: string | null;
  description?: string | null;
  category?: string | null;
}

export interface NormalizedTag {
  name: string;
  /** Lowercase `#rrggbb`. */
  color: string;
  description: string | null;
  category: string | null;
}

/**
 * Normalises `POST /v1/tags` input (trims; color lowercased, default {@link DEFAULT_TAG_COLOR}).
 * Violations: `name` `required` (missing or blank), `too_long`, `reserved_prefix`; `color` `invalid_format`.
 */
export function normalizeTagInput(input: TagInput): { tag: NormalizedTag; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name.length === 0) violations.push({ field: 'name', reason: 'required', message: 'name is required.' });
  else if (name.length > TAG_NAME_MAX_LENGTH) violations.push({ field: 'name', reason: 'too_long', message: `name must be at most ${TAG_NAME_MAX_LENGTH} characters.` });
  else if (isReservedTagName(name)) {
    violations.push({ field: 'name', reason: 'reserved_prefix', message: 'Names beginning with "Campagne :" are reserved for campaign tags.' });
  }
  const colorText = typeof input.color === 'string' ? input.color.trim() : null;
  if (colorText !== null && !COLOR_PATTERN.test(colorText)) {
    violations.push({ field: 'color', reason: 'invalid_format', message: 'color must be #RRGGBB.' });
  }
  const optional = (value: string | null | undefined) => (typeof value === 'string' && value.trim().length > 0 ? value.trim() : null);
  return {
    tag: { name, color: colorText ? colorText.toLowerCase() : DEFAULT_TAG_COLOR, description: optional(input.description), category: optional(input.category) },
    violations,
  };
}

/** A campaign slug: lowercase letters, digits, `-` and `_`, 1–100 characters. */
export const CAMPAIGN_SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;
