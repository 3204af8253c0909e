import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import type { PresuasionSubmissionInput } from '../../../domain/presuasion/presuasion-submission';

/**
 * `POST /v1/presuasion/submissions`: records what a presuasion tool (quiz, calculator, pre-qualification
 * form) posted about one person. `input` has its types checked by the HTTP layer; `apiTermsAccepted` is
 * the calling account's acceptance of the API terms (403 `terms_acceptance_required` otherwise, as on lead capture).
 */
export class RecordPresuasionSubmissionCommand extends Command<PresuasionSubmissionView> {
  constructor(
    readonly accountId: AccountId,
    readonly input: PresuasionSubmissionInput,
    readonly actor: Actor,
    readonly apiTermsAccepted: boolean,
  ) {
    super();
  }
}
