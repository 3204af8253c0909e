import { Command, Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';

/** `role` of a chat message as stored and listed. */
export const CONVERSATION_ROLES = ['user', 'assistant', 'system'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

/** Who wrote a message (public-api-v1 › Conversation and message): the visitor, the AI agent, or a sales rep replying from the inbox. */
export const AUTHOR_KINDS = ['visitor', 'ai_agent', 'sales_rep'] as const;
export type AuthorKind = (typeof AUTHOR_KINDS)[number];

/** One message of a blueprint conversation (operator-api › `conversations[].messages[]`). */
export interface ConversationMessageSpec {
  role: ConversationRole;
  authorKind: AuthorKind;
  /** Stored as given: it may hold the internal pacing markers `[[pause]]` / `[[pause:<ms>]]`. */
  content: string;
  /** The rep's first name (sales_rep messages); null otherwise. */
  authorName?: string | null;
}

/** One blueprint conversation (operator-api › `conversations[]`). */
export interface ConversationSpec {
  agentSlug?: string | null;
  agentIdentityId?: string | null;
  source?: string | null;
  contactEmail?: string | null;
  messages: readonly ConversationMessageSpec[];
}

/**
 * Seeds chat threads from an account blueprint, inside the caller's unit of work. Returns the ids of
 * the conversations created, in blueprint order. Conversation `k` is created at `now + k` ms and its
 * message `j` at `created_at + j` ms, so lists sort deterministically. 400 `validation_error` with
 * `details` `[{ field: 'conversations[0].messages[1].role', reason }]` on a bad value; nothing written.
 */
export class SeedConversationsCommand extends Command<string[]> {
  constructor(
    readonly accountId: AccountId,
    readonly conversations: readonly ConversationSpec[],
  ) {
    super();
  }
}

/** A conversation as `GET /v1/conversations` and `GET /v1/conversations/{id}` show it. */
export interface ConversationView {
  id: string;
  agent_slug: string | null;
  agent_identity_id: string | null;
  source: string | null;
  contact_email: string | null;
  message_count: number;
  /** ISO 8601 UTC; the creation time when the thread has no message. */
  last_message_at: string;
  created_at: string;
}

/** A message as `GET /v1/conversations/{id}/messages` shows it; `content` has its pacing markers removed. */
export interface ConversationMessageView {
  id: string;
  role: ConversationRole;
  content: string;
  created_at: string;
  author_kind: AuthorKind;
  author_name: string | null;
}

/** Exact-match filters of `GET /v1/conversations`; null = not filtered. */
export interface ConversationFilter {
  agentSlug: string | null;
  agentIdentityId: string | null;
  source: string | null;
}

export interface ConversationsPageRequest {
  limit: number;
  after: KeysetPosition | null;
}

/** Newest first (`created_at DESC, id DESC`), keyset paginated, exact `total_count`. */
export class ListConversationsQuery extends Query<Page<ConversationView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: ConversationFilter,
    readonly page: ConversationsPageRequest,
  ) {
    super();
  }
}

/** One conversation; 404 `resource_not_found` when missing, another account's or not a UUID. */
export class GetConversationQuery extends Query<ConversationView> {
  constructor(
    readonly accountId: AccountId,
    readonly conversationId: string,
  ) {
    super();
  }
}

/**
 * The conversation's messages oldest first (`created_at ASC, id ASC`); the cursor continues after the
 * last message of the page. 404 `resource_not_found` as {@link GetConversationQuery}.
 */
export class ListConversationMessagesQuery extends Query<Page<ConversationMessageView>> {
  constructor(
    readonly accountId: AccountId,
    readonly conversationId: string,
    readonly page: ConversationsPageRequest,
  ) {
    super();
  }
}
