import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import type { PresuasionSubmissionState } from '../../domain/presuasion/presuasion-submission';
import type { KeysetPage } from './contacts.read-model.port';

/** Filters of `GET /v1/presuasion/submissions` (all checked by the HTTP layer). */
export interface PresuasionSubmissionFilter {
  /** A tool slug, lowercase. */
  toolSlug: string | null;
  /** The contact and the contacts merged into it, or null for every contact. */
  contactIds: string[] | null;
  /** `submitted_at >= from`. */
  from: Date | null;
  /** `submitted_at <= to`. */
  to: Date | null;
  page: KeysetPage;
}

/** Write side of `contacts.presuasion_submissions`; joins the caller's unit of work. */
export abstract class PresuasionSubmissionRepository {
  abstract insert(submission: PresuasionSubmissionState): Promise<void>;
}

/** Read side of `contacts.presuasion_submissions`: response-shaped views, filtered on the account. */
export abstract class PresuasionSubmissionsReadModel {
  /** Null when missing, of another account, or not a UUID (all alike). */
  abstract get(accountId: AccountId, id: string): Promise<PresuasionSubmissionView | null>;
  /** Sort `created_at DESC, id DESC`, keyset on `(created_at, id)`; `total_count` exact. */
  abstract list(accountId: AccountId, filter: PresuasionSubmissionFilter): Promise<Page<PresuasionSubmissionView>>;
}
