import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  ContactsConfiguration,
  CustomFieldType,
  ExportContactsConfigurationQuery,
  ProvisionTagsCommand,
  ResetContactsDataCommand,
} from '@leadflow/contacts-contracts';
import { Clock, newId } from '@leadflow/shared-kernel';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/**
 * Test mode (issue 15, item 4), contacts side. Pure persistence (copying rows that were valid when
 * written, deleting an account's rows), so the handlers live with the adapters and read and write only
 * the `contacts` schema, inside the caller's transaction.
 */
@QueryHandler(ExportContactsConfigurationQuery)
export class ExportContactsConfigurationHandler implements IQueryHandler<ExportContactsConfigurationQuery> {
  constructor(private readonly transactions: TransactionHost) {}

  async execute({ accountId }: ExportContactsConfigurationQuery): Promise<ContactsConfiguration> {
    const manager = this.transactions.manager;
    const fields: { name: string; type: CustomFieldType; options: string[] | null }[] = await manager.query(
      `SELECT name, type, options FROM contacts.custom_field_definitions WHERE account_id = $1 ORDER BY position, created_at, id`,
      [accountId],
    );
    const tags: { name: string; color: string; description: string | null; category: string | null; system_key: string | null }[] = await manager.query(
      `SELECT name, color, description, category, system_key FROM contacts.tags WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return {
      customFields: fields.map((field) => ({ name: field.name, type: field.type, options: field.options ?? null })),
      tags: tags.map((tag) => ({ name: tag.name, color: tag.color, description: tag.description, category: tag.category, systemKey: tag.system_key })),
    };
  }
}

@CommandHandler(ProvisionTagsCommand)
export class ProvisionTagsHandler implements ICommandHandler<ProvisionTagsCommand> {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, tags }: ProvisionTagsCommand): Promise<Record<string, string>> {
    const now = this.clock.now();
    const ids: Record<string, string> = {};
    for (const tag of tags) {
      const id = newId();
      await this.transactions.manager.query(
        `INSERT INTO contacts.tags (id, account_id, name, color, description, category, system_key, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [id, accountId, tag.name, tag.color, tag.description, tag.category, tag.systemKey, now],
      );
      ids[tag.name] = id;
    }
    return ids;
  }
}

/** Children first; `contacts` last. Tags and custom field definitions stay. */
const CONTACT_DATA_TABLES = [
  'contacts.contact_identities',
  'contacts.contact_tags',
  'contacts.contact_notes',
  'contacts.contact_external_ids',
  'contacts.lead_captures',
  'contacts.sms_handoffs',
  'contacts.presuasion_submissions',
  'contacts.email_unsubscribes',
  'contacts.contacts',
] as const;

@CommandHandler(ResetContactsDataCommand)
export class ResetContactsDataHandler implements ICommandHandler<ResetContactsDataCommand> {
  constructor(private readonly transactions: TransactionHost) {}

  execute({ accountId }: ResetContactsDataCommand): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, CONTACT_DATA_TABLES);
  }
}

/** The api's test-mode handlers of the contacts context (ContactsHttpModule). */
export const CONTACTS_SANDBOX_HANDLERS = [ExportContactsConfigurationHandler, ProvisionTagsHandler, ResetContactsDataHandler];
