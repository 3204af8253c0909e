import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { LeadCaptureResult } from '@leadflow/contacts-contracts';

/**
 * `POST /v1/leads/capture` (public-api-v1 › Endpoints › Leads). `body` is the request body as parsed
 * JSON, whatever its shape (the command reads and checks it); `apiTermsAccepted` is the calling
 * account's acceptance of the API terms (403 `terms_acceptance_required` otherwise).
 */
export class CaptureLeadCommand extends Command<LeadCaptureResult> {
  constructor(
    readonly accountId: AccountId,
    readonly body: unknown,
    readonly actor: Actor,
    readonly apiTermsAccepted: boolean,
  ) {
    super();
  }
}
