import { AccountId, FieldViolation, newId, normalizeEmail } from '@leadflow/shared-kernel';
import { AUTHOR_KINDS, AuthorKind, CONVERSATION_ROLES, ConversationRole, ConversationSpec } from '@leadflow/messaging-contracts';
import { InvalidConversationsError } from './messaging.errors';

/** A chat message as stored (`content` raw, pacing markers included). */
export interface ConversationMessageState {
  id: string;
  conversationId: string;
  role: ConversationRole;
  authorKind: AuthorKind;
  authorName: string | null;
  content: string;
  createdAt: Date;
}

/** A chat thread between a visitor and an agent (`messaging.conversations`) with its messages. */
export interface ConversationState {
  id: string;
  accountId: AccountId;
  agentSlug: string | null;
  agentIdentityId: string | null;
  source: string | null;
  /** Lowercase. */
  contactEmail: string | null;
  createdAt: Date;
  /** The latest message's time, else `createdAt`. */
  lastMessageAt: Date;
  messages: ConversationMessageState[];
}

export const CONVERSATION_LIMITS = { text: 200, authorName: 100, content: 20_000, messages: 500 } as const;

/**
 * Builds conversations from blueprint specs (SeedConversationsCommand). Timestamps: conversation `k`
 * at `now + k` ms, its message `j` at `created_at + j + 1` ms: strictly increasing within a thread, so
 * `created_at ASC, id ASC` is the blueprint order. Throws {@link InvalidConversationsError} listing
 * every breach (`conversations[0].messages[1].role` `invalid_value`, `too_long`, `required`,
 * `invalid_format`).
 */
export function seedConversations(accountId: AccountId, specs: readonly ConversationSpec[], now: Date): ConversationState[] {
  const violations: FieldViolation[] = [];
  const text = (field: string, value: unknown, max: number): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string' || value.trim().length === 0) {
      violations.push({ field, reason: 'invalid_value', message: `${field} must be a non-empty string or null.` });
      return null;
    }
    if (value.length > max) violations.push({ field, reason: 'too_long', message: `At most ${max} characters.` });
    return value.trim();
  };

  const conversations = specs.map((spec, k): ConversationState => {
    const at = `conversations[${k}]`;
    const id = newId();
    const createdAt = new Date(now.getTime() + k);
    let contactEmail: string | null = null;
    if (spec.contactEmail !== undefined && spec.contactEmail !== null) {
      contactEmail = typeof spec.contactEmail === 'string' ? normalizeEmail(spec.contactEmail) : null;
      if (!contactEmail) violations.push({ field: `${at}.contact_email`, reason: 'invalid_format', message: 'contact_email must be an email address or null.' });
    }
    const specMessages = Array.isArray(spec.messages) ? spec.messages : [];
    if (!Array.isArray(spec.messages)) violations.push({ field: `${at}.messages`, reason: 'required', message: 'messages is required (it may be empty).' });
    if (specMessages.length > CONVERSATION_LIMITS.messages) {
      violations.push({ field: `${at}.messages`, reason: 'too_many', message: `At most ${CONVERSATION_LIMITS.messages} messages.` });
    }
    const messages = specMessages.map((message, j): ConversationMessageState => {
      const where = `${at}.messages[${j}]`;
      if (!(CONVERSATION_ROLES as readonly string[]).includes(message.role)) {
        violations.push({ field: `${where}.role`, reason: 'invalid_value', message: `role must be one of ${CONVERSATION_ROLES.join(', ')}.` });
      }
      if (!(AUTHOR_KINDS as readonly string[]).includes(message.authorKind)) {
        violations.push({ field: `${where}.author_kind`, reason: 'invalid_value', message: `author_kind must be one of ${AUTHOR_KINDS.join(', ')}.` });
      }
      if (typeof message.content !== 'string') {
        violations.push({ field: `${where}.content`, reason: 'required', message: 'content is required (it may be empty).' });
      } else if (message.content.length > CONVERSATION_LIMITS.content) {
        violations.push({ field: `${where}.content`, reason: 'too_long', message: `At most ${CONVERSATION_LIMITS.content} characters.` });
      }
      return {
        id: newId(),
        conversationId: id,
        role: message.role,
        authorKind: message.authorKind,
        authorName: text(`${where}.author_name`, message.authorName, CONVERSATION_LIMITS.authorName),
        content: typeof message.content === 'string' ? message.content : '',
        createdAt: new Date(createdAt.getTime() + j + 1),
      };
    });
    return {
      id,
      accountId,
      agentSlug: text(`${at}.agent_slug`, spec.agentSlug, CONVERSATION_LIMITS.text),
      agentIdentityId: text(`${at}.agent_identity_id`, spec.agentIdentityId, CONVERSATION_LIMITS.text),
      source: text(`${at}.source`, spec.source, CONVERSATION_LIMITS.text),
      contactEmail,
      createdAt,
      lastMessageAt: messages.length > 0 ? messages[messages.length - 1].createdAt : createdAt,
      messages,
    };
  });

  if (violations.length > 0) throw new InvalidConversationsError(violations);
  return conversations;
}
