import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, AccountScopedCache, TransactionHost } from '@leadflow/shared-platform';
import { ListSystemsQuery, ListTeamMembersQuery, SystemView, TeamMemberView } from '@leadflow/accounts-contracts';
import { ListPipelinesQuery, ListStagesQuery } from '@leadflow/pipeline-contracts';
import { CustomFieldDefinition, CustomFieldDefinitionRepository, LeadCaptureSettings, PipelineDirectory, TagState } from '@leadflow/contacts-core';
import { TAG_COLUMNS, TagRow, tagRowToState } from '../persistence/contact.mapper';

/** Most entries kept per process, every account together (least recently used evicted first). */
const MAX_ENTRIES = 5000;
/** Entry lifetime, a last safety net behind the invalidations (milliseconds). */
const TTL_MS = 30_000;


/**
 * {@link LeadCaptureSettings} for the api app (issue 11, item 3): a per-account in-process cache
 * (shared-platform's `AccountScopedCache`, topic `config`, 5000 entries, 30 s) over the owners' reads —
 * the accounts context's `ListSystemsQuery` and `ListTeamMembersQuery`, the pipeline context's
 * `ListPipelinesQuery` and `ListStagesQuery`, this context's custom-field definitions and tags.
 *
 * Keys per account: `systems`, `pipelines`, `team`, `definitions`, and `tags:<sorted names>` (one entry
 * per set of names a capture sends; the names without a tag are simply absent). Every writer of these
 * data (accounts, pipeline and contacts repositories) calls `AccountCacheInvalidation.invalidate('config',
 * accountId)` after its commit, which evicts the account's entries here and in every other process.
 * Inside a unit of work nothing is cached: reads go through the transaction, which may see its own
 * uncommitted writes. While invalidations are not received (Redis down) every read loads.
 */
@Injectable()
export class CachedLeadCaptureSettings extends LeadCaptureSettings {
  private readonly cache: AccountScopedCache<object>;

  constructor(
    invalidation: AccountCacheInvalidation,
    private readonly transactions: TransactionHost,
    private readonly queries: QueryBus,
    private readonly definitions: CustomFieldDefinitionRepository,
  ) {
    super();
    this.cache = new AccountScopedCache<object>(invalidation, { topic: 'config', max: MAX_ENTRIES, ttlMs: TTL_MS });
  }

  systems(accountId: AccountId): Promise<readonly SystemView[]> {
    return this.read(accountId, 'systems', () => this.queries.execute(new ListSystemsQuery(accountId)));
  }

  pipelines(accountId: AccountId): Promise<PipelineDirectory> {
    return this.read(accountId, 'pipelines', async () => {
      const [pipelines, stages] = await Promise.all([
        this.queries.execute(new ListPipelinesQuery(accountId)),
        this.queries.execute(new ListStagesQuery(accountId)),
      ]);
      return { pipelines, stages };
    });
  }

  teamMembers(accountId: AccountId): Promise<readonly TeamMemberView[]> {
    return this.read(accountId, 'team', () => this.queries.execute(new ListTeamMembersQuery(accountId)));
  }

  customFieldDefinitions(accountId: AccountId): Promise<readonly CustomFieldDefinition[]> {
    return this.read(accountId, 'definitions', () => this.definitions.listDefinitions(accountId));
  }

  tagsNamed(accountId: AccountId, names: readonly string[]): Promise<readonly TagState[]> {
    const wanted = [...new Set(names)].sort();
    if (wanted.length === 0) return Promise.resolve([]);
    return this.read(accountId, `tags:${JSON.stringify(wanted)}`, async () => {
      const rows: TagRow[] = await this.transactions.manager.query(
        `SELECT ${TAG_COLUMNS} FROM contacts.tags WHERE account_id = $1 AND name = ANY($2::text[])`,
        [accountId, wanted],
      );
      return rows.map(tagRowToState);
    });
  }

  private read<V extends object>(accountId: AccountId, key: string, load: () => Promise<V>): Promise<V> {
    if (this.transactions.inTransaction) return load();
    return this.cache.get(accountId, key, load) as Promise<V>;
  }
}
