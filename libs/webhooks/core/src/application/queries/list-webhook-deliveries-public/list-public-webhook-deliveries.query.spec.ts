import { ValidationFailedError } from '@leadflow/shared-kernel';
import { ListPublicWebhookDeliveriesQuery } from './list-public-webhook-deliveries.query';

describe('ListPublicWebhookDeliveriesQuery.readFilter', () => {
  it('reads status, event, from and to', () => {
    expect(ListPublicWebhookDeliveriesQuery.readFilter({ status: 'exhausted', event: 'lead_created', from: '2026-11-01', to: '2026-11-25T10:00:00Z' })).toEqual({
      status: 'exhausted',
      event: 'lead_created',
      from: new Date('2026-11-01T00:00:00.000Z'),
      to: new Date('2026-11-25T10:00:00.000Z'),
    });
  });

  it('reports every bad filter together as 400 validation_error', () => {
    const error = (() => {
      try {
        ListPublicWebhookDeliveriesQuery.readFilter({ status: 'retrying', event: 'nope', from: 'yesterday', to: ['x'] });
      } catch (caught) {
        return caught as ValidationFailedError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error!.details).toEqual([
      expect.objectContaining({ field: 'status', reason: 'invalid_value' }),
      expect.objectContaining({ field: 'event', reason: 'unknown_event_type' }),
      expect.objectContaining({ field: 'from', reason: 'invalid_format' }),
      expect.objectContaining({ field: 'to', reason: 'invalid_format' }),
    ]);
  });

  it('a date alone covers its whole UTC day (to = its last millisecond)', () => {
    expect(ListPublicWebhookDeliveriesQuery.readFilter({ from: '2026-11-25', to: '2026-11-25' })).toMatchObject({
      from: new Date('2026-11-25T00:00:00.000Z'),
      to: new Date('2026-11-25T23:59:59.999Z'),
    });
  });

  it('from after to is invalid_range', () => {
    expect(() => ListPublicWebhookDeliveriesQuery.readFilter({ from: '2026-11-25', to: '2026-11-01' })).toThrow(ValidationFailedError);
  });
});
