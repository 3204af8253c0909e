import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { ConversationFilter, ConversationMessageView, ConversationsPageRequest, ConversationView } from '@leadflow/messaging-contracts';
import type { ConversationState } from '../../domain/conversation';

/** Writes of chat threads; joins the caller's unit of work. */
export abstract class ConversationRepository {
  /** Inserts the conversations and their messages. */
  abstract insert(conversations: readonly ConversationState[]): Promise<void>;
}

/** Reads of chat threads, always filtered on the account; ids that are not UUIDs find nothing. */
export abstract class ConversationsReadModel {
  /** `created_at DESC, id DESC`, exact-match filters, exact `total_count`. */
  abstract list(accountId: AccountId, filter: ConversationFilter, page: ConversationsPageRequest): Promise<Page<ConversationView>>;
  abstract get(accountId: AccountId, conversationId: string): Promise<ConversationView | null>;
  /** `created_at ASC, id ASC` (content with pacing markers removed); null when the conversation is not the account's. */
  abstract messages(accountId: AccountId, conversationId: string, page: ConversationsPageRequest): Promise<Page<ConversationMessageView> | null>;
}
