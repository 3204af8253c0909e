import type { AccountId } from '@leadflow/shared-kernel';
import type { StagePosition } from '../../domain/contact-stage';

/**
 * Write side of a contact's pipeline membership (a deal is a contact whose stage is set). Joins the
 * caller's unit of work; filters on the account.
 */
export abstract class ContactStageRepository {
  /**
   * Writes the contact's pipeline and stage and `updated_at`. With `stopAiFollowUp`, also records the
   * human decision that stops the AI assistant's follow-up (`ai_follow_up_stopped_at`; the first
   * decision's instant is kept).
   */
  abstract setStage(accountId: AccountId, contactId: string, position: StagePosition, at: Date, options: { stopAiFollowUp: boolean }): Promise<void>;
}
