import { decideLeadOutcome, LEAD_DEDUP_WINDOW_MS } from './lead-capture-outcome';

/** public-api-v1 › Lead capture outcome. */
describe('lead capture outcome', () => {
  const now = new Date('2026-05-01T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('created: a new contact', () => {
    expect(decideLeadOutcome({ contactWasNew: true, lastCaptureAt: null, now, inOpenStage: true })).toBe('created');
  });

  it('idempotent_replay: any submission for the same contact within 5 minutes, before the open-stage rule', () => {
    expect(decideLeadOutcome({ contactWasNew: false, lastCaptureAt: ago(0), now, inOpenStage: true })).toBe('idempotent_replay');
    expect(decideLeadOutcome({ contactWasNew: false, lastCaptureAt: ago(LEAD_DEDUP_WINDOW_MS - 1), now, inOpenStage: false })).toBe('idempotent_replay');
  });

  it('the window is 5 minutes: at 5 minutes the submission is no longer a replay', () => {
    expect(LEAD_DEDUP_WINDOW_MS).toBe(300_000);
    expect(decideLeadOutcome({ contactWasNew: false, lastCaptureAt: ago(LEAD_DEDUP_WINDOW_MS), now, inOpenStage: true })).toBe('existing_pipeline_contact');
  });

  it('existing_pipeline_contact: an open stage after the window', () => {
    expect(decideLeadOutcome({ contactWasNew: false, lastCaptureAt: ago(6 * 60_000), now, inOpenStage: true })).toBe('existing_pipeline_contact');
    expect(decideLeadOutcome({ contactWasNew: false, lastCaptureAt: null, now, inOpenStage: true })).toBe('existing_pipeline_contact');
  });

  it('created (not new): an existing contact without an open stage, no capture in the window', () => {
    expect(decideLeadOutcome({ contactWasNew: false, lastCaptureAt: null, now, inOpenStage: false })).toBe('created');
    expect(decideLeadOutcome({ contactWasNew: false, lastCaptureAt: ago(10 * 60_000), now, inOpenStage: false })).toBe('created');
  });
});
