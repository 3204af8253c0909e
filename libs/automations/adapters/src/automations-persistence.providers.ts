import { AutomationCollaborators, AutomationsReadModel, AutomationStore } from '@leadflow/automations-core';
import { CqrsAutomationCollaborators } from './infrastructure/cqrs/cqrs-automation-collaborators';
import { TypeOrmAutomationStore } from './infrastructure/persistence/typeorm-automation.store';
import { TypeOrmAutomationsReadModel } from './infrastructure/persistence/typeorm-automations.read-model';

/** The automations ports on PostgreSQL and the CQRS buses (api and worker alike); `UnitOfWork` and `Journal` come from PlatformModule. */
export const AUTOMATIONS_PERSISTENCE_PROVIDERS = [
  { provide: AutomationStore, useClass: TypeOrmAutomationStore },
  { provide: AutomationsReadModel, useClass: TypeOrmAutomationsReadModel },
  { provide: AutomationCollaborators, useClass: CqrsAutomationCollaborators },
];
