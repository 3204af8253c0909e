import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { DealView, PipelineStageView } from '@leadflow/pipeline-contracts';

/** Keyset page over `(created_at, id)` descending (same shape as shared-platform's PageRequest). */
export interface DealPage {
  limit: number;
  after: KeysetPosition | null;
}

export interface DealListFilter {
  /** Exact stage (a UUID), or null for every deal. */
  stageId: string | null;
  page: DealPage;
}

/**
 * Read side of deals and stage counts. A deal is a contact whose stage is set, so these views come
 * from the contacts context's rows, read in real time (ARCHITECTURE › Data); every query filters on
 * the account and leaves merged contacts out.
 */
export abstract class DealsReadModel {
  /**
   * Every stage of the account's pipelines (pipelines in dashboard order, then `stage_order`) with its
   * `contact_count`: contacts in the stage, archived and merged ones left out.
   */
  abstract listStages(accountId: AccountId): Promise<PipelineStageView[]>;
  /** Deals, `created_at DESC, id DESC`, `total_count` exact. */
  abstract listDeals(accountId: AccountId, filter: DealListFilter): Promise<Page<DealView>>;
  /** True when the id is a contact of the account, not merged, with a stage set (false for a non-UUID). */
  abstract isDeal(accountId: AccountId, contactId: string): Promise<boolean>;
}
