import { IGNORED_FIELDS_MAX } from '@leadflow/contacts-contracts';
import { asIdempotentReplay, IgnoredFields } from './ignored-fields';

/** public-api-v1 › Endpoints › Leads rule 4: ignored_fields capped at 50, hand-mapped fields before connector-added ones. */
describe('ignored_fields', () => {
  it('lists outcome entries first, then hand-mapped fields, then connector-added ones, each in the order found', () => {
    const ignored = new IgnoredFields();
    ignored.add('customData.form_page', 'unknown_field', 'connector');
    ignored.add('form_name', 'unknown_field');
    ignored.add('pipeline.id', 'unknown_field');
    ignored.add('', 'submission_not_recorded', 'outcome');
    expect(ignored.toResponse()).toEqual({
      ignored_fields: [
        { field: '', reason: 'submission_not_recorded' },
        { field: 'form_name', reason: 'unknown_field' },
        { field: 'pipeline.id', reason: 'unknown_field' },
        { field: 'customData.form_page', reason: 'unknown_field' },
      ],
      ignored_fields_truncated: false,
    });
  });

  it('is empty and not truncated when everything was applied', () => {
    expect(new IgnoredFields().toResponse()).toEqual({ ignored_fields: [], ignored_fields_truncated: false });
  });

  it('caps the list at 50 entries with ignored_fields_truncated, keeping hand-mapped fields over connector-added ones', () => {
    const ignored = new IgnoredFields();
    for (let index = 0; index < 30; index++) ignored.add(`customData.extra_${index}`, 'unknown_field', 'connector');
    for (let index = 0; index < 30; index++) ignored.add(`field_${index}`, 'unknown_field');
    const { ignored_fields, ignored_fields_truncated } = ignored.toResponse();
    expect(IGNORED_FIELDS_MAX).toBe(50);
    expect(ignored_fields).toHaveLength(50);
    expect(ignored_fields_truncated).toBe(true);
    expect(ignored_fields.slice(0, 30).every((entry) => entry.field.startsWith('field_'))).toBe(true);
    expect(ignored_fields[30]).toEqual({ field: 'customData.extra_0', reason: 'unknown_field' });
  });

  it('exactly 50 entries are not truncated', () => {
    const ignored = new IgnoredFields();
    for (let index = 0; index < 50; index++) ignored.add(`f${index}`, 'unknown_field');
    expect(ignored.toResponse().ignored_fields_truncated).toBe(false);
  });

  it('names an entry once', () => {
    const ignored = new IgnoredFields();
    ignored.add('utm.utm_source', 'unknown_field');
    ignored.add('utm.utm_source', 'unknown_field');
    expect(ignored.size).toBe(1);
  });

  it('a clone is independent', () => {
    const ignored = new IgnoredFields();
    ignored.add('a', 'unknown_field');
    const copy = ignored.clone();
    copy.add('b', 'unknown_field');
    expect(ignored.size).toBe(1);
    expect(copy.size).toBe(2);
  });

  it('an Idempotency-Key replay says idempotent_replay and submission_not_recorded, keeping the original answer', () => {
    const original = {
      status: 'created',
      contact_id: 'c1',
      contact_was_new: true,
      ignored_fields: [{ field: 'form_name', reason: 'unknown_field' as const }],
      ignored_fields_truncated: false,
      activity_id: 'a1',
      original_created_at: '2026-05-01T12:00:00.000Z',
    };
    expect(asIdempotentReplay(original)).toEqual({
      ...original,
      status: 'idempotent_replay',
      ignored_fields: [
        { field: '', reason: 'submission_not_recorded' },
        { field: 'form_name', reason: 'unknown_field' },
      ],
    });
    const full = { ...original, ignored_fields: Array.from({ length: 50 }, (_, index) => ({ field: `f${index}`, reason: 'unknown_field' as const })) };
    const replayed = asIdempotentReplay(full);
    expect(replayed.ignored_fields).toHaveLength(50);
    expect(replayed.ignored_fields[0].reason).toBe('submission_not_recorded');
    expect(replayed.ignored_fields_truncated).toBe(true);
  });
});
