import type { PipelineSpec } from '@leadflow/pipeline-contracts';
import { provisionPipelines } from './pipeline.aggregate';
import { InvalidPipelinesError } from './pipeline.errors';

const now = new Date('2026-11-22T12:00:00.000Z');
const stage = (slug: string, flags: Partial<PipelineSpec['stages'][number]> = {}) => ({ name: slug.toUpperCase(), slug, ...flags });
const pipeline = (slug: string, stages = [stage(`${slug}1`), stage(`${slug}2`)], flags: Partial<PipelineSpec> = {}): PipelineSpec => ({
  name: slug.toUpperCase(),
  slug,
  stages,
  ...flags,
});

function violationsOf(work: () => unknown) {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPipelinesError);
    return (error as InvalidPipelinesError).details;
  }
  throw new Error('expected InvalidPipelinesError');
}

describe('provisionPipelines (operator blueprint › pipelines)', () => {
  it('keeps the given order as dashboard_order and stage_order, starting at 1', () => {
    const [a, b] = provisionPipelines([pipeline('a'), pipeline('b')], [], now);
    expect([a.dashboardOrder, b.dashboardOrder]).toEqual([1, 2]);
    expect(a.stages.map((s) => s.stageOrder)).toEqual([1, 2]);
    expect(a.createdAt).toEqual(now);
  });

  it('makes the first pipeline and the first stage of each the default ones when none is flagged', () => {
    const [a, b] = provisionPipelines([pipeline('a'), pipeline('b')], [], now);
    expect([a.isDefault, b.isDefault]).toEqual([true, false]);
    expect(a.stages.map((s) => s.isDefault)).toEqual([true, false]);
    expect(b.stages.map((s) => s.isDefault)).toEqual([true, false]);
  });

  it('keeps the flagged defaults', () => {
    const [a, b] = provisionPipelines([pipeline('a'), pipeline('b', [stage('x'), stage('y', { isDefault: true })], { isDefault: true })], [], now);
    expect([a.isDefault, b.isDefault]).toEqual([false, true]);
    expect(b.stages.map((s) => s.isDefault)).toEqual([false, true]);
  });

  it('lists every breach at once, with blueprint field paths', () => {
    const details = violationsOf(() =>
      provisionPipelines(
        [
          pipeline('a', [stage('x'), stage('x', { isDefault: true }), stage('z', { isDefault: true })], { isDefault: true }),
          pipeline('a', [stage('Bad Slug')], { isDefault: true }),
        ],
        [],
        now,
      ),
    );
    expect(details).toEqual([
      { field: 'pipelines[1].is_default', reason: 'invalid_value', message: expect.any(String) },
      { field: 'pipelines[0].stages[2].is_default', reason: 'invalid_value', message: expect.any(String) },
      { field: 'pipelines[0].stages[1].slug', reason: 'duplicate', message: expect.any(String) },
      { field: 'pipelines[1].slug', reason: 'duplicate', message: expect.any(String) },
      { field: 'pipelines[1].stages[0].slug', reason: 'invalid_format', message: expect.any(String) },
    ]);
  });

  it('refuses a default when the account already has one, and a slug it already uses; continues the dashboard order', () => {
    const existing = [{ slug: 'ventes', isDefault: true, dashboardOrder: 3, stageCount: 4 }];
    expect(violationsOf(() => provisionPipelines([pipeline('ventes'), pipeline('b', undefined, { isDefault: true })], existing, now))).toEqual([
      { field: 'pipelines[1].is_default', reason: 'invalid_value', message: expect.any(String) },
      { field: 'pipelines[0].slug', reason: 'duplicate', message: expect.any(String) },
    ]);
    const [added] = provisionPipelines([pipeline('autre')], existing, now);
    expect(added).toMatchObject({ isDefault: false, dashboardOrder: 4 });
  });

  it('counts stages already stored toward the 50 per account', () => {
    const many = Array.from({ length: 10 }, (_, i) => stage(`s${i}`));
    expect(() => provisionPipelines([pipeline('b', many)], [{ slug: 'a', isDefault: true, dashboardOrder: 1, stageCount: 40 }], now)).not.toThrow();
    expect(violationsOf(() => provisionPipelines([pipeline('b', [...many, stage('s10')])], [{ slug: 'a', isDefault: true, dashboardOrder: 1, stageCount: 40 }], now))).toEqual([
      { field: 'pipelines', reason: 'too_many', message: expect.any(String) },
    ]);
  });

  it.each([
    [{ isWon: true, isLost: true }, 'is_won', 'exclusive_field'],
    [{ isWon: true, isDisqualification: true }, 'is_won', 'exclusive_field'],
  ])('refuses a stage flagged %j', (flags, member, reason) => {
    expect(violationsOf(() => provisionPipelines([pipeline('a', [stage('x', flags)])], [], now))).toEqual([
      { field: `pipelines[0].stages[0].${member}`, reason, message: expect.any(String) },
    ]);
  });

  it('accepts a lost disqualification stage and a hidden stage', () => {
    const [a] = provisionPipelines([pipeline('a', [stage('n'), stage('d', { isLost: true, isDisqualification: true }), stage('h', { isHidden: true })])], [], now);
    expect(a.stages[1]).toMatchObject({ isLost: true, isDisqualification: true, isWon: false });
    expect(a.stages[2]).toMatchObject({ isHidden: true });
  });

  it('refuses a pipeline without stages, names that are blank and slugs longer than 100 characters', () => {
    expect(violationsOf(() => provisionPipelines([{ name: ' ', slug: 'a'.repeat(101), stages: [] }], [], now))).toEqual([
      { field: 'pipelines[0].name', reason: 'required', message: expect.any(String) },
      { field: 'pipelines[0].slug', reason: 'invalid_format', message: expect.any(String) },
      { field: 'pipelines[0].stages', reason: 'too_few', message: expect.any(String) },
    ]);
  });
});
