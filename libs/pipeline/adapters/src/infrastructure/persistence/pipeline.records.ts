import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'pipeline', name: 'pipelines' })
export class PipelineRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') name: string;
  @Column('text') slug: string;
  @Column('boolean') isDefault: boolean;
  @Column('int') dashboardOrder: number;
  @Column('timestamptz') createdAt: Date;
}

@Entity({ schema: 'pipeline', name: 'stages' })
export class StageRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('uuid') pipelineId: string;
  @Column('text') name: string;
  @Column('text') slug: string;
  @Column('int') stageOrder: number;
  @Column('boolean') isDefault: boolean;
  @Column('boolean') isHidden: boolean;
  @Column('boolean') isWon: boolean;
  @Column('boolean') isLost: boolean;
  @Column('boolean') isDisqualification: boolean;
  @Column('timestamptz') createdAt: Date;
}

export const PIPELINE_RECORDS = [PipelineRecord, StageRecord];
