import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import { PresuasionSubmissionFilter, PresuasionSubmissionRepository, PresuasionSubmissionsReadModel } from '../application/ports/presuasion-submissions.port';
import { toPresuasionSubmissionView } from '../application/presuasion-submission.view';
import type { PresuasionSubmissionState } from '../domain/presuasion/presuasion-submission';

/** {@link PresuasionSubmissionRepository} and {@link PresuasionSubmissionsReadModel} over an array (unit tests). */
export class InMemoryPresuasionSubmissions implements PresuasionSubmissionRepository, PresuasionSubmissionsReadModel {
  readonly rows: PresuasionSubmissionState[] = [];

  async insert(submission: PresuasionSubmissionState): Promise<void> {
    this.rows.push(structuredClone(submission));
  }

  async get(accountId: AccountId, id: string): Promise<PresuasionSubmissionView | null> {
    const row = this.rows.find((item) => item.accountId === accountId && item.id === id.toLowerCase());
    return row ? toPresuasionSubmissionView(row) : null;
  }

  /** Newest first; filters applied; one page without a cursor (enough for unit tests). */
  async list(accountId: AccountId, filter: PresuasionSubmissionFilter): Promise<Page<PresuasionSubmissionView>> {
    const rows = this.rows
      .filter((item) => item.accountId === accountId)
      .filter((item) => filter.toolSlug === null || item.toolSlug === filter.toolSlug)
      .filter((item) => filter.contactIds === null || filter.contactIds.includes(item.contactId))
      .filter((item) => (filter.from === null || item.submittedAt >= filter.from) && (filter.to === null || item.submittedAt <= filter.to))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const data = rows.slice(0, filter.page.limit).map(toPresuasionSubmissionView);
    return { data, pagination: { next_cursor: null, has_more: rows.length > filter.page.limit, limit: filter.page.limit, total_count: rows.length } };
  }
}
