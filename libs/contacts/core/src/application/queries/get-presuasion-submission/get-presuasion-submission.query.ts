import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';

/** `GET /v1/presuasion/submissions/{id}`: 404 `not_found` for a missing, other account's or non-UUID id (alike). */
export class GetPresuasionSubmissionQuery extends Query<PresuasionSubmissionView> {
  constructor(
    readonly accountId: AccountId,
    readonly submissionId: string,
  ) {
    super();
  }
}
