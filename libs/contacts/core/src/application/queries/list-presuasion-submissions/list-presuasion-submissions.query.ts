import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import type { KeysetPage } from '../../ports/contacts.read-model.port';

/**
 * `GET /v1/presuasion/submissions`: sort `created_at DESC, id DESC`. Filters (checked by the HTTP
 * layer): `toolSlug` (lowercase), `contactId` (a UUID: that contact's submissions and those of the
 * contacts merged into it; another account's id finds nothing), `from` / `to` (inclusive bounds of `submitted_at`).
 */
export class ListPresuasionSubmissionsQuery extends Query<Page<PresuasionSubmissionView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: { toolSlug: string | null; contactId: string | null; from: Date | null; to: Date | null },
    readonly page: KeysetPage,
  ) {
    super();
  }
}
