import { Column, Entity, PrimaryColumn } from 'typeorm';

/** `messaging.email_threads`: the non-test emails of an account to one recipient address. */
@Entity({ schema: 'messaging', name: 'email_threads' })
export class EmailThreadRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') address: string;
  @Column('text') subject: string;
  @Column({ type: 'uuid', nullable: true }) contactId: string | null;
  @Column('text', { array: true }) participants: string[];
  @Column('int') messageCount: number;
  @Column('timestamptz') lastMessageAt: Date;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
