import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  CONTACTS_HANDLERS,
  ContactExternalIds,
  ContactIdentityRepository,
  ContactNoteRepository,
  ContactStageRepository,
  ContactsReadModel,
  ContactsRepository,
  ContactsSandboxData,
  ContactTagRepository,
  CustomFieldDefinitionRepository,
  EmailUnsubscribes,
  LeadCaptureLog,
  LeadCaptureSettings,
  LeadScoreRepository,
  PresuasionSubmissionRepository,
  PresuasionSubmissionsReadModel,
  SmsFollowUpPort,
  TagRepository,
} from '@leadflow/contacts-core';
import { CachedLeadCaptureSettings } from './infrastructure/cache/cached-lead-capture.settings';
import { CONTACTS_RECORDS } from './infrastructure/persistence/contacts.records';
import { TypeOrmContactExternalIds } from './infrastructure/persistence/typeorm-contact-external-ids';
import { TypeOrmContactIdentityRepository } from './infrastructure/persistence/typeorm-contact-identity.repository';
import { TypeOrmContactNoteRepository } from './infrastructure/persistence/typeorm-contact-note.repository';
import { TypeOrmContactStageRepository } from './infrastructure/persistence/typeorm-contact-stage.repository';
import { TypeOrmContactTagRepository } from './infrastructure/persistence/typeorm-contact-tag.repository';
import { TypeOrmContactsReadModel } from './infrastructure/persistence/typeorm-contacts.read-model';
import { TypeOrmContactsRepository } from './infrastructure/persistence/typeorm-contacts.repository';
import { TypeOrmCustomFieldDefinitionRepository } from './infrastructure/persistence/typeorm-custom-field-definition.repository';
import { TypeOrmEmailUnsubscribes } from './infrastructure/persistence/typeorm-email-unsubscribes';
import { TypeOrmLeadCaptureLog } from './infrastructure/persistence/typeorm-lead-capture.log';
import { TypeOrmLeadScoreRepository } from './infrastructure/persistence/typeorm-lead-score.repository';
import { TypeOrmPresuasionSubmissions } from './infrastructure/persistence/typeorm-presuasion-submissions';
import { TypeOrmTagRepository } from './infrastructure/persistence/typeorm-tag.repository';
import { PostgresSmsFollowUpAdapter } from './infrastructure/sms/postgres-sms-follow-up.adapter';
import { PostgresContactsSandboxData } from './infrastructure/sandbox/contacts-sandbox-data';

/**
 * The contacts context's one core module: every handler ({@link CONTACTS_HANDLERS}, listed once in core)
 * and every port binding, imported by both ContactsHttpModule and ContactsJobsModule, so the api and
 * the worker answer the same commands and queries with the same adapters (no second list to keep in
 * step). Needs PlatformModule (TransactionHost, AccountCacheInvalidation, the unit of work and journal).
 */
@Module({
  imports: [TypeOrmModule.forFeature(CONTACTS_RECORDS)],
  providers: [
    ...CONTACTS_HANDLERS,
    { provide: ContactsRepository, useClass: TypeOrmContactsRepository },
    { provide: ContactIdentityRepository, useClass: TypeOrmContactIdentityRepository },
    { provide: TagRepository, useClass: TypeOrmTagRepository },
    { provide: ContactTagRepository, useClass: TypeOrmContactTagRepository },
    { provide: CustomFieldDefinitionRepository, useClass: TypeOrmCustomFieldDefinitionRepository },
    { provide: ContactNoteRepository, useClass: TypeOrmContactNoteRepository },
    { provide: ContactStageRepository, useClass: TypeOrmContactStageRepository },
    { provide: ContactsReadModel, useClass: TypeOrmContactsReadModel },
    { provide: EmailUnsubscribes, useClass: TypeOrmEmailUnsubscribes },
    { provide: LeadCaptureLog, useClass: TypeOrmLeadCaptureLog },
    { provide: LeadCaptureSettings, useClass: CachedLeadCaptureSettings },
    { provide: ContactExternalIds, useClass: TypeOrmContactExternalIds },
    TypeOrmPresuasionSubmissions,
    { provide: PresuasionSubmissionRepository, useExisting: TypeOrmPresuasionSubmissions },
    { provide: PresuasionSubmissionsReadModel, useExisting: TypeOrmPresuasionSubmissions },
    { provide: LeadScoreRepository, useClass: TypeOrmLeadScoreRepository },
    { provide: SmsFollowUpPort, useClass: PostgresSmsFollowUpAdapter },
    { provide: ContactsSandboxData, useClass: PostgresContactsSandboxData },
  ],
})
export class ContactsCoreModule {}
