import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'messaging', name: 'senders' })
export class SenderRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') email: string;
  @Column('text') name: string;
  @Column('boolean') isDefault: boolean;
  @Column('timestamptz') createdAt: Date;
}
