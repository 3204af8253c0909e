import { Injectable } from '@nestjs/common';
import { AccountId, Page } from '@leadflow/shared-kernel';
import { applyKeyset, toPage, TransactionHost } from '@leadflow/shared-platform';
import { QuoteListFilter, QuotePublicLinks, QuotesReadModel, toQuoteView } from '@leadflow/quotes-core';
import type { QuoteView } from '@leadflow/quotes-contracts';
import { QuoteMapper } from './quote.mapper';
import { QuoteRecord } from './quotes.records';

/** `GET /v1/quotes` on `quotes.quotes`: archived excluded, optional status, keyset on `(created_at, id)`. */
@Injectable()
export class TypeOrmQuotesReadModel extends QuotesReadModel {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly links: QuotePublicLinks,
  ) {
    super();
  }

  async list(accountId: AccountId, filter: QuoteListFilter): Promise<Page<QuoteView>> {
    const base = () => {
      const query = this.transactions.manager.createQueryBuilder(QuoteRecord, 'q').where('q.account_id = :accountId AND q.archived_at IS NULL', { accountId });
      if (filter.status) query.andWhere('q.status = :status', { status: filter.status });
      return query;
    };
    const [rows, total] = await Promise.all([applyKeyset(base(), 'q', filter.page).getMany(), base().getCount()]);
    return toPage(rows, filter.page, total, (row) => toQuoteView(QuoteMapper.toState(row), this.links));
  }
}
