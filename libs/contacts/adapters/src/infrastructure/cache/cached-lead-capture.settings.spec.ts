import type { QueryBus } from '@nestjs/cqrs';
import { asAccountId } from '@leadflow/shared-kernel';
import type { AccountCacheInvalidation, CacheTopic, TransactionHost } from '@leadflow/shared-platform';
import { ListSystemsQuery, ListTeamMembersQuery, SystemView } from '@leadflow/accounts-contracts';
import { ListPipelinesQuery, ListStagesQuery } from '@leadflow/pipeline-contracts';
import type { CustomFieldDefinitionRepository } from '@leadflow/contacts-core';
import { CachedLeadCaptureSettings } from './cached-lead-capture.settings';

const A = asAccountId('a0000000-0000-4000-8000-00000000000a');
const B = asAccountId('a0000000-0000-4000-8000-00000000000b');
const MAIN: SystemView = { id: 'b0000000-0000-4000-8000-000000000001', name: 'Main', isMain: true, isActive: true };

/** The platform's invalidation channel as the cache sees it: trusted while "subscribed", eviction on demand. */
class FakeInvalidation {
  trusted = true;
  private readonly listeners: { topic: CacheTopic; listener: (accountId: string | null) => void }[] = [];

  listen(topic: CacheTopic, listener: (accountId: string | null) => void): void {
    this.listeners.push({ topic, listener });
  }

  /** What a committed write of any process causes here (Redis pub/sub message). */
  deliver(topic: CacheTopic, accountId: string | null): void {
    for (const entry of this.listeners) if (entry.topic === topic) entry.listener(accountId);
  }
}

function setup() {
  const invalidation = new FakeInvalidation();
  const executed: unknown[] = [];
  const queries = {
    execute: async (query: unknown) => {
      executed.push(query);
      if (query instanceof ListSystemsQuery) return [MAIN];
      if (query instanceof ListTeamMembersQuery) return [];
      if (query instanceof ListPipelinesQuery) return [];
      if (query instanceof ListStagesQuery) return [];
      throw new Error(`unexpected query ${String(query)}`);
    },
  } as unknown as QueryBus;
  const sql: unknown[][] = [];
  const transactions = {
    inTransaction: false,
    manager: {
      query: async (_text: string, parameters: unknown[]) => {
        sql.push(parameters);
        const names = parameters[1] as string[];
        const at = new Date('2026-05-14T13:00:00.000Z');
        return names.filter((name) => name !== 'Nouveau').map((name) => ({ id: `id-${name}`, name, color: '#6b7280', description: null, category: null, system_key: null, created_at: at, updated_at: at }));
      },
    },
  };
  const definitionReads: string[] = [];
  const definitions = {
    listDefinitions: async (accountId: string) => {
      definitionReads.push(accountId);
      return [{ id: 'f1', name: 'budget', type: 'text', options: null }];
    },
  } as unknown as CustomFieldDefinitionRepository;
  const settings = new CachedLeadCaptureSettings(
    invalidation as unknown as AccountCacheInvalidation,
    transactions as unknown as TransactionHost,
    queries,
    definitions,
  );
  const systemLoads = () => executed.filter((query) => query instanceof ListSystemsQuery).length;
  return { settings, invalidation, executed, sql, transactions, definitionReads, systemLoads };
}

describe('CachedLeadCaptureSettings (per-account cache of what lead capture reads, issue 11 item 3)', () => {
  it('a hit does not call the loader: the account\'s Systems are read once', async () => {
    const { settings, systemLoads } = setup();
    expect(await settings.systems(A)).toEqual([MAIN]);
    expect(await settings.systems(A)).toEqual([MAIN]);
    expect(systemLoads()).toBe(1);
  });

  it('an invalidation for the account makes the next read load again; another account\'s entries stay', async () => {
    const { settings, invalidation, systemLoads } = setup();
    await settings.systems(A);
    await settings.systems(B);
    invalidation.deliver('config', A);
    await settings.systems(A);
    await settings.systems(B);
    expect(systemLoads()).toBe(3);
  });

  it('an invalidation of another topic (auth) leaves the settings cached', async () => {
    const { settings, invalidation, systemLoads } = setup();
    await settings.systems(A);
    invalidation.deliver('auth', A);
    await settings.systems(A);
    expect(systemLoads()).toBe(1);
  });

  it('a reconnection of the invalidation channel (null: every account) empties the cache', async () => {
    const { settings, invalidation, definitionReads } = setup();
    await settings.customFieldDefinitions(A);
    invalidation.deliver('config', null);
    await settings.customFieldDefinitions(A);
    expect(definitionReads).toEqual([A, A]);
  });

  it('pipelines and stages are one entry per account, loaded with both published queries', async () => {
    const { settings, invalidation, executed } = setup();
    await settings.pipelines(A);
    await settings.pipelines(A);
    expect(executed.map((query) => query?.constructor.name).sort()).toEqual(['ListPipelinesQuery', 'ListStagesQuery']);
    invalidation.deliver('config', A);
    await settings.pipelines(A);
    expect(executed).toHaveLength(4);
  });

  it('team members and custom-field definitions are cached per account', async () => {
    const { settings, executed, definitionReads } = setup();
    await settings.teamMembers(A);
    await settings.teamMembers(A);
    await settings.customFieldDefinitions(A);
    await settings.customFieldDefinitions(A);
    expect(executed.filter((query) => query instanceof ListTeamMembersQuery)).toHaveLength(1);
    expect(definitionReads).toEqual([A]);
  });

  it('tags are cached per set of names (order and repeats do not matter); a missing name is left out', async () => {
    const { settings, sql } = setup();
    const first = await settings.tagsNamed(A, ['Cuisine', 'Nouveau', 'Facebook Ads']);
    expect(first.map((tag) => tag.name).sort()).toEqual(['Cuisine', 'Facebook Ads']);
    await settings.tagsNamed(A, ['Facebook Ads', 'Cuisine', 'Nouveau', 'Cuisine']);
    expect(sql).toEqual([[A, ['Cuisine', 'Facebook Ads', 'Nouveau']]]);
    await settings.tagsNamed(A, ['Cuisine']);
    expect(sql).toHaveLength(2);
    expect(await settings.tagsNamed(A, [])).toEqual([]);
    expect(sql).toHaveLength(2);
  });

  it('inside a unit of work nothing is cached: reads go through the transaction every time', async () => {
    const { settings, transactions, systemLoads } = setup();
    transactions.inTransaction = true;
    await settings.systems(A);
    await settings.systems(A);
    transactions.inTransaction = false;
    await settings.systems(A);
    await settings.systems(A);
    expect(systemLoads()).toBe(3);
  });

  it('while invalidations are not received (Redis down), every read loads', async () => {
    const { settings, invalidation, systemLoads } = setup();
    invalidation.trusted = false;
    await settings.systems(A);
    await settings.systems(A);
    expect(systemLoads()).toBe(2);
  });
});
