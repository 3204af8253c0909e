import { Injectable } from '@nestjs/common';
import { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactStageRepository, StagePosition } from '@leadflow/contacts-core';

/** SQL implementation of {@link ContactStageRepository}, in the current unit of work, filtered on the account. */
@Injectable()
export class TypeOrmContactStageRepository extends ContactStageRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async setStage(accountId: AccountId, contactId: string, position: StagePosition, at: Date, options: { stopAiFollowUp: boolean }): Promise<void> {
    await this.transactions.manager.query(
      `UPDATE contacts.contacts
          SET pipeline_id = $3, stage_id = $4, updated_at = $5,
              ai_follow_up_stopped_at = CASE WHEN $6::boolean THEN COALESCE(ai_follow_up_stopped_at, $5) ELSE ai_follow_up_stopped_at END
        WHERE account_id = $1 AND id = $2`,
      [accountId, contactId, position.pipelineId, position.stageId, at, options.stopAiFollowUp],
    );
  }
}
