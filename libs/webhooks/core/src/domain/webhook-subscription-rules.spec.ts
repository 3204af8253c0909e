import { readEventSelection, urlViolations } from './webhook-subscription-rules';

describe('subscription rules', () => {
  it('url: https only, absolute, no credentials', () => {
    expect(urlViolations('https://hooks.example.com/x')).toEqual([]);
    expect(urlViolations('http://hooks.example.com/x')[0].reason).toBe('https_required');
    expect(urlViolations('hooks.example.com')[0].reason).toBe('invalid_format');
    expect(urlViolations('https://u:p@hooks.example.com')[0].reason).toBe('invalid_format');
    expect(urlViolations(undefined)[0].reason).toBe('required');
  });

  it('events: "*" or ["*"] is every event; a non-empty list of catalog names otherwise', () => {
    expect(readEventSelection('*').selection).toEqual({ all: true });
    expect(readEventSelection(['*']).selection).toEqual({ all: true });
    expect(readEventSelection(['lead_created', 'lead_created', 'note_created']).selection).toEqual({ all: false, events: ['lead_created', 'note_created'] });
    expect(readEventSelection([]).violations[0].reason).toBe('invalid_value');
    expect(readEventSelection(['lead_created', 'nope']).violations).toEqual([expect.objectContaining({ field: 'events[1]', reason: 'unknown_event_type' })]);
    expect(readEventSelection(undefined).violations[0].reason).toBe('required');
  });
});
