import { Module } from '@nestjs/common';
import { ContactsCoreModule } from './contacts-core.module';
import { ContactsController } from './interface/http/contacts.controller';
import { LeadsController } from './interface/http/leads.controller';
import { PresuasionSubmissionsController } from './interface/http/presuasion-submissions.controller';
import { TagsController } from './interface/http/tags.controller';

/** Contacts, tags, custom fields, notes, lead capture and presuasion submissions for the api app (handlers and ports: ContactsCoreModule). */
@Module({
  imports: [ContactsCoreModule],
  controllers: [ContactsController, TagsController, LeadsController, PresuasionSubmissionsController],
})
export class ContactsHttpModule {}
