import { AutomationCollaborators, AutomationOutbox, AutomationsReadModel, AutomationStore, AutomationUnitOfWork } from '@leadflow/automations-core';
import { CqrsAutomationCollaborators } from './infrastructure/cqrs/cqrs-automation-collaborators';
import { PlatformAutomationOutbox, PlatformAutomationUnitOfWork } from './infrastructure/platform-automation.journal';
import { TypeOrmAutomationStore } from './infrastructure/persistence/typeorm-automation.store';
import { TypeOrmAutomationsReadModel } from './infrastructure/persistence/typeorm-automations.read-model';

/** The automations ports on PostgreSQL, the platform outbox and the CQRS buses (api and worker alike). */
export const AUTOMATIONS_PERSISTENCE_PROVIDERS = [
  { provide: AutomationStore, useClass: TypeOrmAutomationStore },
  { provide: AutomationsReadModel, useClass: TypeOrmAutomationsReadModel },
  { provide: AutomationUnitOfWork, useClass: PlatformAutomationUnitOfWork },
  { provide: AutomationOutbox, useClass: PlatformAutomationOutbox },
  { provide: AutomationCollaborators, useClass: CqrsAutomationCollaborators },
];
