import { Injectable } from '@nestjs/common';
import { AccountId, encodeCursor, Page } from '@leadflow/shared-kernel';
import { applyKeyset, toPage, TransactionHost } from '@leadflow/shared-platform';
import { ConversationRepository, ConversationsReadModel, ConversationState, stripPacingMarkers } from '@leadflow/messaging-core';
import type { ConversationFilter, ConversationMessageView, ConversationsPageRequest, ConversationView } from '@leadflow/messaging-contracts';
import { ConversationMessageRecord, ConversationRecord } from './conversation.record';

/** {@link ConversationRepository}: two multi-row inserts in the caller's transaction. */
@Injectable()
export class TypeOrmConversationRepository extends ConversationRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async insert(conversations: readonly ConversationState[]): Promise<void> {
    if (conversations.length === 0) return;
    const manager = this.transactions.manager;
    await manager.insert(
      ConversationRecord,
      conversations.map((c) => ({
        id: c.id,
        accountId: c.accountId,
        agentSlug: c.agentSlug,
        agentIdentityId: c.agentIdentityId,
        source: c.source,
        contactEmail: c.contactEmail,
        messageCount: c.messages.length,
        lastMessageAt: c.lastMessageAt,
        createdAt: c.createdAt,
      })),
    );
    const messages = conversations.flatMap((c) => c.messages.map((m) => ({ ...m, accountId: c.accountId })));
    for (let start = 0; start < messages.length; start += 1000) {
      await manager.insert(ConversationMessageRecord, messages.slice(start, start + 1000));
    }
  }
}

/** {@link ConversationsReadModel}: every query filters on `account_id` and walks an index leading with it. */
@Injectable()
export class TypeOrmConversationsReadModel extends ConversationsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async list(accountId: AccountId, filter: ConversationFilter, page: ConversationsPageRequest): Promise<Page<ConversationView>> {
    const builder = this.transactions.manager.createQueryBuilder(ConversationRecord, 'c').where('c.account_id = :accountId', { accountId });
    if (filter.agentSlug !== null) builder.andWhere('c.agent_slug = :agentSlug', { agentSlug: filter.agentSlug });
    if (filter.agentIdentityId !== null) builder.andWhere('c.agent_identity_id = :agentIdentityId', { agentIdentityId: filter.agentIdentityId });
    if (filter.source !== null) builder.andWhere('c.source = :source', { source: filter.source });
    const total = await builder.clone().getCount();
    const rows = await applyKeyset(builder, 'c', page).getMany();
    return toPage(rows, page, total, toConversationView);
  }

  async get(accountId: AccountId, conversationId: string): Promise<ConversationView | null> {
    const row = await this.transactions.manager.findOneBy(ConversationRecord, { accountId, id: conversationId });
    return row ? toConversationView(row) : null;
  }

  async messages(accountId: AccountId, conversationId: string, page: ConversationsPageRequest): Promise<Page<ConversationMessageView> | null> {
    const conversation = await this.transactions.manager.findOne(ConversationRecord, {
      where: { accountId, id: conversationId },
      select: { id: true, messageCount: true },
    });
    if (!conversation) return null;
    const builder = this.transactions.manager
      .createQueryBuilder(ConversationMessageRecord, 'm')
      .where('m.account_id = :accountId AND m.conversation_id = :conversationId', { accountId, conversationId });
    // Oldest first: the page continues strictly after the cursor's (created_at, id).
    if (page.after?.id) {
      builder.andWhere('(m.created_at, m.id) > (:afterCreatedAt, :afterId)', { afterCreatedAt: page.after.createdAt, afterId: page.after.id });
    } else if (page.after) {
      builder.andWhere('m.created_at > :afterCreatedAt', { afterCreatedAt: page.after.createdAt });
    }
    const rows = await builder.orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC').limit(page.limit + 1).getMany();
    const hasMore = rows.length > page.limit;
    const visible = hasMore ? rows.slice(0, page.limit) : rows;
    const last = visible[visible.length - 1];
    return {
      data: visible.map((m) => ({
        id: m.id,
        role: m.role,
        content: stripPacingMarkers(m.content),
        created_at: m.createdAt.toISOString(),
        author_kind: m.authorKind,
        author_name: m.authorName,
      })),
      pagination: {
        next_cursor: hasMore && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
        has_more: hasMore,
        limit: page.limit,
        total_count: conversation.messageCount,
      },
    };
  }
}

function toConversationView(row: ConversationRecord): ConversationView {
  return {
    id: row.id,
    agent_slug: row.agentSlug,
    agent_identity_id: row.agentIdentityId,
    source: row.source,
    contact_email: row.contactEmail,
    message_count: row.messageCount,
    last_message_at: row.lastMessageAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}
