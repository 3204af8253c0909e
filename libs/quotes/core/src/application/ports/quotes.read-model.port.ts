import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { QuoteStatus, QuoteView } from '@leadflow/quotes-contracts';

export interface QuoteListFilter {
  status: QuoteStatus | null;
  page: { limit: number; after: KeysetPosition | null };
}

/** Read side: `GET /v1/quotes`, archived quotes excluded, sort `created_at DESC, id DESC`, exact `total_count`. */
export abstract class QuotesReadModel {
  abstract list(accountId: AccountId, filter: QuoteListFilter): Promise<Page<QuoteView>>;
}
