import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  CONTACTS_HANDLERS,
  ContactExternalIds,
  ContactStageRepository,
  ContactsReadModel,
  ContactsRepository,
  EmailUnsubscribes,
  LeadCaptureLog,
  LeadCaptureSettings,
  PresuasionSubmissionRepository,
  PresuasionSubmissionsReadModel,
} from '@leadflow/contacts-core';
import { CachedLeadCaptureSettings } from './infrastructure/cache/cached-lead-capture.settings';
import { CONTACTS_RECORDS } from './infrastructure/persistence/contacts.records';
import { TypeOrmContactExternalIds } from './infrastructure/persistence/typeorm-contact-external-ids';
import { TypeOrmContactStageRepository } from './infrastructure/persistence/typeorm-contact-stage.repository';
import { TypeOrmContactsReadModel } from './infrastructure/persistence/typeorm-contacts.read-model';
import { TypeOrmContactsRepository } from './infrastructure/persistence/typeorm-contacts.repository';
import { TypeOrmEmailUnsubscribes } from './infrastructure/persistence/typeorm-email-unsubscribes';
import { TypeOrmLeadCaptureLog } from './infrastructure/persistence/typeorm-lead-capture.log';
import { TypeOrmPresuasionSubmissions } from './infrastructure/persistence/typeorm-presuasion-submissions';
import { ContactsController } from './interface/http/contacts.controller';
import { LeadsController } from './interface/http/leads.controller';
import { PresuasionSubmissionsController } from './interface/http/presuasion-submissions.controller';
import { TagsController } from './interface/http/tags.controller';

/** Contacts, tags, custom fields, notes, lead capture and presuasion submissions for the api app (published commands included). */
@Module({
  imports: [TypeOrmModule.forFeature(CONTACTS_RECORDS)],
  controllers: [ContactsController, TagsController, LeadsController, PresuasionSubmissionsController],
  providers: [
    ...CONTACTS_HANDLERS,
    { provide: ContactsRepository, useClass: TypeOrmContactsRepository },
    { provide: ContactStageRepository, useClass: TypeOrmContactStageRepository },
    { provide: ContactsReadModel, useClass: TypeOrmContactsReadModel },
    { provide: EmailUnsubscribes, useClass: TypeOrmEmailUnsubscribes },
    { provide: LeadCaptureLog, useClass: TypeOrmLeadCaptureLog },
    { provide: LeadCaptureSettings, useClass: CachedLeadCaptureSettings },
    { provide: ContactExternalIds, useClass: TypeOrmContactExternalIds },
    TypeOrmPresuasionSubmissions,
    { provide: PresuasionSubmissionRepository, useExisting: TypeOrmPresuasionSubmissions },
    { provide: PresuasionSubmissionsReadModel, useExisting: TypeOrmPresuasionSubmissions },
  ],
})
export class ContactsHttpModule {}
