import { checkAutomationSpecs, fingerprintOf } from './automation-definition';

describe('blueprint member automations: definition checks', () => {
  it('accepts every step type with its fields and every trigger type', () => {
    expect(
      checkAutomationSpecs([
        {
          name: 'A',
          trigger: { type: 'custom_event', event: 'inscription' },
          steps: [
            { type: 'add_tag', tag: 'x' },
            { type: 'remove_tag', tag: 'y' },
            { type: 'send_email', subject: 's', body: 'b' },
            { type: 'move_to_stage', pipelineSlug: 'ventes', stageSlug: 'gagne' },
            { type: 'move_to_stage', stageId: 'ad7c1b4e-3c1f-4a57-9d2b-0d6f2f2b8a11' },
            { type: 'wait', seconds: 60 },
            { type: 'webhook', event: 'automation_completed' },
          ],
        },
        { name: 'B', trigger: { type: 'manual' } },
        { name: 'C', trigger: { type: 'contact_created' } },
        { name: 'D', trigger: { type: 'stage_changed', pipelineSlug: 'ventes' } },
        { name: 'E', trigger: null },
      ]),
    ).toEqual([]);
  });

  it('names each violation with its path and reason', () => {
    const violations = checkAutomationSpecs([
      { name: ' ', steps: [{ type: 'send_email', body: 'b' }] },
      { name: 'B', trigger: { type: 'custom_event' }, steps: [{ type: 'wait', seconds: 0 }, { type: 'webhook', event: 'nope' }] },
      { name: 'B', trigger: { type: 'manual', event: 'x' }, steps: [{ type: 'move_to_stage', stageId: 'a', pipelineSlug: 'p' }, { type: 'add_tag', tag: 'x', seconds: 2 }] },
      { name: 'D', trigger: { type: 'stage_changed', stageSlug: 'gagne' }, steps: [{ type: 'move_to_stage', pipelineSlug: 'ventes' }] },
    ]);
    expect(violations.map(({ field, reason }) => `${field}:${reason}`)).toEqual([
      'automations[0].name:required',
      'automations[0].steps[0].subject:required',
      'automations[1].trigger.event:required',
      'automations[1].steps[0].seconds:invalid_value',
      'automations[1].steps[1].event:unknown_event_type',
      'automations[2].name:duplicate',
      'automations[2].trigger.event:invalid_value',
      'automations[2].steps[0].stage_id:exclusive_field',
      'automations[2].steps[1].seconds:invalid_value',
      'automations[3].trigger.pipeline_slug:required',
      'automations[3].steps[0].stage_slug:required',
    ]);
  });

  it('fingerprints event data independently of key order', () => {
    expect(fingerprintOf({ a: 1, b: { c: 2, d: [1, { e: 3, f: 4 }] } })).toBe(fingerprintOf({ b: { d: [1, { f: 4, e: 3 }], c: 2 }, a: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
    expect(fingerprintOf(undefined)).toBe(fingerprintOf({}));
  });
});
