import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactFollowUpState, ContactStageRepository, StagePosition } from '@leadflow/contacts-core';

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

  async followUpState(accountId: AccountId, contactId: string): Promise<ContactFollowUpState | null> {
    if (!isUuid(contactId)) return null;
    const rows: { merged_into_id: string | null; stopped_at: Date | null }[] = await this.transactions.manager.query(
      `SELECT merged_into_id, ai_follow_up_stopped_at AS stopped_at FROM contacts.contacts WHERE account_id = $1 AND id = $2`,
      [accountId, contactId],
    );
    return rows[0] ? { mergedIntoId: rows[0].merged_into_id, aiFollowUpStoppedAt: rows[0].stopped_at } : null;
  }
}
