import { IGNORED_FIELDS_MAX, IgnoredField, IgnoredFieldReason } from '@leadflow/contacts-contracts';

/**
 * Where an ignored member came from. `outcome`: the submission itself (`submission_not_recorded`),
 * listed first; `mapped`: members the integrator mapped (root members and the `utm`, `meta`,
 * `pipeline`, `custom_fields`, `tags` blocks); `connector`: members a connector added in `customData`.
 */
export type IgnoredOrigin = 'outcome' | 'mapped' | 'connector';

const ORDER: Record<IgnoredOrigin, number> = { outcome: 0, mapped: 1, connector: 2 };

/**
 * The `ignored_fields` of a capture: entries kept in the order they were found within each origin,
 * hand-mapped fields before connector-added ones, capped at {@link IGNORED_FIELDS_MAX} with
 * `ignored_fields_truncated` (public-api-v1 › Endpoints › Leads rule 4). An entry is listed once.
 */
export class IgnoredFields {
  private readonly entries: (IgnoredField & { origin: IgnoredOrigin; order: number })[] = [];
  /** `field` and `reason` of every entry (a body may hold many thousands of unknown members). */
  private readonly seen = new Set<string>();

  add(field: string, reason: IgnoredFieldReason, origin: IgnoredOrigin = 'mapped'): void {
    const key = `${reason}\u0000${field}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push({ field, reason, origin, order: this.entries.length });
  }

  /** An independent copy (one per attempt of a capture that may be retried). */
  clone(): IgnoredFields {
    const copy = new IgnoredFields();
    for (const entry of this.entries) copy.add(entry.field, entry.reason, entry.origin);
    return copy;
  }

  get size(): number {
    return this.entries.length;
  }

  toResponse(): { ignored_fields: IgnoredField[]; ignored_fields_truncated: boolean } {
    const sorted = [...this.entries].sort((a, b) => ORDER[a.origin] - ORDER[b.origin] || a.order - b.order);
    return {
      ignored_fields: sorted.slice(0, IGNORED_FIELDS_MAX).map(({ field, reason }) => ({ field, reason })),
      ignored_fields_truncated: sorted.length > IGNORED_FIELDS_MAX,
    };
  }
}

/**
 * Marks a stored response as an Idempotency-Key replay: status `idempotent_replay` and a
 * `submission_not_recorded` entry first (the cap still applies). The rest of the original answer
 * (contact, pipeline, `activity_id`, `original_created_at`) is kept.
 */
export function asIdempotentReplay<T extends { status: string; ignored_fields: IgnoredField[]; ignored_fields_truncated: boolean }>(original: T): T {
  const others = original.ignored_fields.filter((entry) => entry.reason !== 'submission_not_recorded');
  const all: IgnoredField[] = [{ field: '', reason: 'submission_not_recorded' }, ...others];
  return {
    ...original,
    status: 'idempotent_replay',
    ignored_fields: all.slice(0, IGNORED_FIELDS_MAX),
    ignored_fields_truncated: original.ignored_fields_truncated || all.length > IGNORED_FIELDS_MAX,
  };
}
