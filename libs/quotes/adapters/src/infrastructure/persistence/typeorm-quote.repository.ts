import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AccountId, asAccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { QuotePayment, QuoteRepository, QuoteRowLockedError, QuoteState } from '@leadflow/quotes-core';
import { QuoteMapper } from './quote.mapper';
import { QuotePaymentRecord, QuoteRecord } from './quotes.records';

/** PostgreSQL `lock_not_available` (a `NOWAIT` lock another transaction holds). */
const LOCK_NOT_AVAILABLE = '55P03';

const EXPIRABLE = `q.status IN ('draft', 'sent', 'viewed') AND q.archived_at IS NULL AND q.amount_paid_cents = 0 AND q.valid_until IS NOT NULL`;

/** TypeORM implementation of {@link QuoteRepository}; every statement filters on `account_id` but the expiry scan. */
@Injectable()
export class TypeOrmQuoteRepository extends QuoteRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
  }

  async nextSequence(accountId: AccountId, year: number): Promise<number> {
    const rows: { last_value: number }[] = await this.manager.query(
      `INSERT INTO quotes.quote_sequences (account_id, year, last_value) VALUES ($1, $2, 1)
       ON CONFLICT (account_id, year) DO UPDATE SET last_value = quotes.quote_sequences.last_value + 1
       RETURNING last_value`,
      [accountId, year],
    );
    return Number(rows[0].last_value);
  }

  async insert(quote: QuoteState): Promise<void> {
    await this.manager.insert(QuoteRecord, QuoteMapper.toRecord(quote) as QueryDeepPartialEntity<QuoteRecord>);
  }

  async update(quote: QuoteState): Promise<void> {
    const { id, accountId, quoteNumber: _number, createdAt: _createdAt, ...columns } = QuoteMapper.toRecord(quote);
    await this.manager.update(QuoteRecord, { accountId, id }, columns as QueryDeepPartialEntity<QuoteRecord>);
  }

  async find(accountId: AccountId, quoteId: string, options: { lock?: 'wait' | 'nowait' } = {}): Promise<QuoteState | null> {
    if (!isUuid(quoteId)) return null;
    const query = this.manager.createQueryBuilder(QuoteRecord, 'q').where('q.account_id = :accountId AND q.id = :quoteId', { accountId, quoteId: quoteId.toLowerCase() });
    if (options.lock && this.transactions.inTransaction) {
      query.setLock('pessimistic_write');
      if (options.lock === 'nowait') query.setOnLocked('nowait');
    }
    try {
      const row = await query.getOne();
      return row ? QuoteMapper.toState(row) : null;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === LOCK_NOT_AVAILABLE) throw new QuoteRowLockedError();
      throw error;
    }
  }

  async findByTokenHash(accountId: AccountId, tokenHash: string, options: { lock?: boolean } = {}): Promise<QuoteState | null> {
    const query = this.manager
      .createQueryBuilder(QuoteRecord, 'q')
      .where('q.account_id = :accountId AND q.public_token_hash = :tokenHash', { accountId, tokenHash });
    if (options.lock && this.transactions.inTransaction) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? QuoteMapper.toState(row) : null;
  }

  async insertPayment(accountId: AccountId, payment: QuotePayment): Promise<void> {
    await this.manager.insert(QuotePaymentRecord, { ...payment, accountId });
  }

  async expiryGroups(before: string): Promise<{ accountId: AccountId; timezone: string }[]> {
    // The one cross-account read: the daily job looks for every account with something to expire.
    const rows: { account_id: string; timezone: string }[] = await this.manager.query(
      `SELECT DISTINCT q.account_id, q.timezone FROM quotes.quotes q WHERE ${EXPIRABLE} AND q.valid_until < $1::date`,
      [before],
    );
    return rows.map((row) => ({ accountId: asAccountId(row.account_id), timezone: row.timezone }));
  }

  async lockExpiryCandidates(accountId: AccountId, timezone: string, today: string): Promise<QuoteState[]> {
    const rows = await this.manager
      .createQueryBuilder(QuoteRecord, 'q')
      .where(`q.account_id = :accountId AND q.timezone = :timezone AND ${EXPIRABLE} AND q.valid_until < :today::date`, { accountId, timezone, today })
      .orderBy('q.created_at', 'ASC')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
    return rows.map(QuoteMapper.toState);
  }
}
