import type { AccountId } from '@leadflow/shared-kernel';
import { ContactStageRepository } from '../application/ports/contact-stage.repository.port';
import type { StagePosition } from '../domain/contact-stage';
import { aiFollowUpStoppedAt, type InMemoryContactsStore } from './in-memory-contacts.store';

/**
 * {@link ContactStageRepository} over the contacts fake's store. The AI follow-up marker lives on the
 * stored contact row (as `ai_follow_up_stopped_at` does in the table), so the unit of work's snapshot
 * rolls it back with the rest.
 */
export class InMemoryContactStageRepository extends ContactStageRepository {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async setStage(accountId: AccountId, contactId: string, position: StagePosition, at: Date, options: { stopAiFollowUp: boolean }): Promise<void> {
    this.store.contacts = this.store.contacts.map((row) => {
      if (row.accountId !== accountId || row.id !== contactId) return row;
      const stoppedAt = aiFollowUpStoppedAt(this.store, contactId) ?? (options.stopAiFollowUp ? at : null);
      return { ...row, ...position, updatedAt: at, aiFollowUpStoppedAt: stoppedAt };
    });
  }
}
