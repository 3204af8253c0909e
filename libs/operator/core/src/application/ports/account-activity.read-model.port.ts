import type { AccountId, Actor, KeysetPosition, Page } from '@leadflow/shared-kernel';

/** One entry of `GET /admin/v1/accounts/{id}/activity` (operator-api › Further operator endpoints). */
export interface ActivityEntryView {
  id: string;
  contact_id: string | null;
  type: string;
  actor: Actor;
  created_at: string;
}

export interface ActivityFilter {
  contactId: string | null;
  type: string | null;
}

export interface ActivityPageRequest {
  limit: number;
  after: KeysetPosition | null;
}

/** The account's activity-log and timeline entries, newest first (`created_at DESC, id DESC`), keyset paginated. */
export abstract class AccountActivityReadModel {
  abstract list(accountId: AccountId, filter: ActivityFilter, page: ActivityPageRequest): Promise<Page<ActivityEntryView>>;
}
