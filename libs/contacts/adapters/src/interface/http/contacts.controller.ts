import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { ContactView, TagView } from '@leadflow/contacts-contracts';
import {
  AddNoteCommand,
  AttachTagsCommand,
  ContactBatchResult,
  ContactListPage,
  ContactMergeReport,
  CreateContactCommand,
  DeleteContactCommand,
  DeletedContact,
  DetachTagCommand,
  GetContactQuery,
  GetContactTimelineQuery,
  ListContactsQuery,
  MergeContactsCommand,
  NoteView,
  UpdateContactCommand,
  UpsertContactsCommand,
} from '@leadflow/contacts-core';
import { Actor, InvalidRequestError, isUuid, Page } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, listParam, readPageRequest, RequireScope, stringParam } from '@leadflow/shared-platform';
import { AddNoteDto, AttachTagsDto } from './dto/contact-children.dto';
import { CreateContactDto, UpdateContactDto } from './dto/contact.dto';
import { ContactsBatchDto } from './dto/contacts-batch.dto';
import { MergeContactDto } from './dto/merge-contact.dto';

/**
 * `/v1/contacts` (public-api-v1 › Contacts; operator-api › Deleting, Tags on a contact, Notes).
 * A non-UUID, missing, merged or other account's `{id}` answers 404 `not_found` alike.
 */
@Controller('v1/contacts')
export class ContactsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * List, `created_at DESC, id DESC`, `cursor`/`limit` (400 `invalid_request` `details.field` `limit` or
   * `cursor`), `search` (AND of words, each in email, first_name, last_name or company), `tag` (UUID,
   * else 400 `invalid_request` field `tag`), `include=custom_field_definitions`, `expand=tags`.
   */
  @Get()
  @RequireScope('contacts:read')
  list(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<ContactListPage> {
    const page = readPageRequest(query);
    const search = stringParam(query, 'search');
    if (search !== null && search.length > 500) throw new InvalidRequestError('search', 'too_long', 'search must be at most 500 characters.');
    const tag = stringParam(query, 'tag') || null;
    if (tag !== null && !isUuid(tag)) throw new InvalidRequestError('tag', 'invalid_format', 'tag must be the id (UUID) of a tag.');
    return this.queries.execute(
      new ListContactsQuery(key.accountId, {
        search,
        tagId: tag ? tag.toLowerCase() : null,
        page,
        expandTags: listParam(query, 'expand').includes('tags'),
        includeDefinitions: listParam(query, 'include').includes('custom_field_definitions'),
      }),
    );
  }

  /** 201 `{ data: contact }`; Idempotency-Key honoured. Errors: see CreateContactHandler. */
  @Post()
  @RequireScope('contacts:write')
  async create(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: CreateContactDto): Promise<{ data: ContactView }> {
    const contact = await this.commands.execute(
      new CreateContactCommand(
        key.accountId,
        {
          email: body.email,
          firstName: body.first_name,
          lastName: body.last_name,
          phone: body.phone,
          company: body.company,
          dealValue: body.deal_value,
          customFields: body.custom_fields,
          systemId: body.system_id,
        },
        actor,
      ),
    );
    return { data: contact };
  }

  /**
   * Batch upsert (issue 15, item 5): 200 `{ data: [result…] }`, one result per input in order
   * (`created`, `updated`, `unchanged` with the contact, or `error` with `code`, `message`, `details`).
   * Idempotency-Key honoured (the whole answer is replayed). See UpsertContactsHandler.
   */
  @Post('batch')
  @HttpCode(200)
  @RequireScope('contacts:write')
  async batch(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: ContactsBatchDto): Promise<{ data: ContactBatchResult[] }> {
    return { data: await this.commands.execute(new UpsertContactsCommand(key.accountId, body.inputs, actor)) };
  }

  /** `expand=tags` adds `client_contact_tags`. */
  @Get(':id')
  @RequireScope('contacts:read')
  async get(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<{ data: ContactView }> {
    return { data: await this.queries.execute(new GetContactQuery(key.accountId, id, listParam(query, 'expand').includes('tags'))) };
  }

  /** Rules 1–6: see UpdateContactHandler. */
  @Patch(':id')
  @RequireScope('contacts:write')
  async update(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: UpdateContactDto): Promise<{ data: ContactView }> {
    const contact = await this.commands.execute(
      new UpdateContactCommand(
        key.accountId,
        id,
        {
          email: body.email,
          firstName: body.first_name,
          lastName: body.last_name,
          phone: body.phone,
          company: body.company,
          dealValue: body.deal_value,
          isPriority: body.is_priority,
          notes: body.notes,
          customFields: body.custom_fields,
        },
        actor,
      ),
    );
    return { data: contact };
  }

  /** 200 `{ data: { id, deleted: true, cleanup: { attempted, failed } } }`. */
  @Delete(':id')
  @HttpCode(200)
  @RequireScope('contacts:delete')
  async remove(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ data: DeletedContact }> {
    return { data: await this.commands.execute(new DeleteContactCommand(key.accountId, id, actor)) };
  }

  /**
   * Public merge (issue 15, item 6): 200 `{ data: report }`, the same report for `dry_run` true (nothing
   * written) and false (one transaction). Scope `contacts:delete`: the merged contact stops existing for
   * the API. See MergeContactsHandler.
   */
  @Post(':id/merge')
  @HttpCode(200)
  @RequireScope('contacts:delete')
  async merge(
    @CurrentKey() key: ApiKeyPrincipal,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: MergeContactDto,
  ): Promise<{ data: ContactMergeReport }> {
    return { data: await this.commands.execute(new MergeContactsCommand(key.accountId, id, body.into, body.dry_run === true, actor)) };
  }

  /** Stub: an empty page; `cursor` and `limit` validated (400 `invalid_request`), not applied. */
  @Get(':id/timeline')
  @RequireScope('contacts:read')
  timeline(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<Page<never>> {
    return this.queries.execute(new GetContactTimelineQuery(key.accountId, id, readPageRequest(query)));
  }

  /** 200 `{ data: [tag…] }`: the contact's tags after attaching. */
  @Post(':id/tags')
  @HttpCode(200)
  @RequireScope('contacts:write')
  async attachTags(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AttachTagsDto): Promise<{ data: TagView[] }> {
    return { data: await this.commands.execute(new AttachTagsCommand(key.accountId, id, body.tag_ids, actor)) };
  }

  /** 204. */
  @Delete(':id/tags/:tag_id')
  @HttpCode(204)
  @RequireScope('contacts:write')
  async detachTag(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string, @Param('tag_id') tagId: string): Promise<void> {
    await this.commands.execute(new DetachTagCommand(key.accountId, id, tagId, actor));
  }

  /** 201 `{ data: { id, contact_id, body, created_at } }`. */
  @Post(':id/notes')
  @RequireScope('contacts:write')
  async addNote(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: AddNoteDto): Promise<{ data: NoteView }> {
    return { data: await this.commands.execute(new AddNoteCommand(key.accountId, id, body.body, actor)) };
  }
}
