import type { ScenarioResult } from './load-runner';
import { formatTable, medianRound } from './report';

function result(name: string, target: 'api' | 'baseline', rate: number, ratio: number | null): ScenarioResult {
  return { name, target, requests_per_second: rate, ratio_to_baseline: ratio } as ScenarioResult;
}

describe('medianRound (npm run bench with BENCH_ROUNDS)', () => {
  it('keeps, per api scenario, the round with the median ratio, and per baseline scenario the median rate', () => {
    const rounds = [
      [result('me', 'api', 100, 0.3), result('baseline_me', 'baseline', 300, null)],
      [result('me', 'api', 120, 0.5), result('baseline_me', 'baseline', 200, null)],
      [result('me', 'api', 90, 0.4), result('baseline_me', 'baseline', 250, null)],
    ];

    const median = medianRound(rounds);

    expect(median.map((entry) => [entry.name, entry.requests_per_second, entry.ratio_to_baseline])).toEqual([
      ['me', 90, 0.4],
      ['baseline_me', 250, null],
    ]);
  });

  it('takes the lower middle of an even number of rounds, and the only round of one', () => {
    expect(medianRound([[result('me', 'api', 1, 0.2)], [result('me', 'api', 2, 0.6)]])[0].ratio_to_baseline).toBe(0.2);
    expect(medianRound([[result('me', 'api', 1, 0.7)]])[0].ratio_to_baseline).toBe(0.7);
    expect(medianRound([])).toEqual([]);
  });
});

describe('formatTable (batch upsert scenario, issue 15 item 5)', () => {
  it('notes the contacts per second of a scenario whose requests write several contacts', () => {
    const batch = { ...result('contact_batch_upsert', 'api', 12.5, null), status: 'ran', items_per_request: 100, items_per_second: 1250, status_codes: { '200': 125 } } as ScenarioResult;
    expect(formatTable([batch])).toContain('1250.0 contacts/s');
  });
});
