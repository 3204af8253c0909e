import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONTACTS_HANDLERS, ContactJournal, ContactsReadModel, ContactsRepository, UnitOfWork } from '@leadflow/contacts-core';
import { CONTACTS_RECORDS } from './infrastructure/persistence/contacts.records';
import { TypeOrmContactsReadModel } from './infrastructure/persistence/typeorm-contacts.read-model';
import { TypeOrmContactsRepository } from './infrastructure/persistence/typeorm-contacts.repository';
import { PlatformContactJournal, PlatformUnitOfWork } from './infrastructure/platform-journal';
import { ContactsController } from './interface/http/contacts.controller';
import { TagsController } from './interface/http/tags.controller';

/** Contacts, tags, custom fields and notes for the api app (published commands included). */
@Module({
  imports: [TypeOrmModule.forFeature(CONTACTS_RECORDS)],
  controllers: [ContactsController, TagsController],
  providers: [
    ...CONTACTS_HANDLERS,
    { provide: ContactsRepository, useClass: TypeOrmContactsRepository },
    { provide: ContactsReadModel, useClass: TypeOrmContactsReadModel },
    { provide: UnitOfWork, useClass: PlatformUnitOfWork },
    { provide: ContactJournal, useClass: PlatformContactJournal },
  ],
})
export class ContactsHttpModule {}
