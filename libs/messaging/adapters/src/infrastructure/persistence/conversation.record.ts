import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuthorKind, ConversationRole } from '@leadflow/messaging-contracts';

/** `messaging.conversations`: a chat thread between a visitor and an agent. */
@Entity({ schema: 'messaging', name: 'conversations' })
export class ConversationRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column({ type: 'text', nullable: true }) agentSlug: string | null;
  @Column({ type: 'text', nullable: true }) agentIdentityId: string | null;
  @Column({ type: 'text', nullable: true }) source: string | null;
  @Column({ type: 'text', nullable: true }) contactEmail: string | null;
  @Column('int') messageCount: number;
  @Column('timestamptz') lastMessageAt: Date;
  @Column('timestamptz') createdAt: Date;
}

/** `messaging.conversation_messages`: `content` as stored, pacing markers included. */
@Entity({ schema: 'messaging', name: 'conversation_messages' })
export class ConversationMessageRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('uuid') conversationId: string;
  @Column('text') role: ConversationRole;
  @Column('text') authorKind: AuthorKind;
  @Column({ type: 'text', nullable: true }) authorName: string | null;
  @Column('text') content: string;
  @Column('timestamptz') createdAt: Date;
}

export const MESSAGING_CONVERSATION_RECORDS = [ConversationRecord, ConversationMessageRecord];
