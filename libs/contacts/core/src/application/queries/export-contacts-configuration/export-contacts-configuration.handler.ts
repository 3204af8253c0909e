import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContactsConfiguration, ExportContactsConfigurationQuery } from '@leadflow/contacts-contracts';
import { ContactsSandboxData } from '../../ports/contacts-sandbox-data.port';

/**
 * {@link ExportContactsConfigurationQuery} (test mode, issue 15 item 4): the account's custom fields and
 * tags, for the operator API to copy into its sandbox. Never contacts.
 */
@QueryHandler(ExportContactsConfigurationQuery)
export class ExportContactsConfigurationHandler implements IQueryHandler<ExportContactsConfigurationQuery> {
  constructor(private readonly sandbox: ContactsSandboxData) {}

  execute({ accountId }: ExportContactsConfigurationQuery): Promise<ContactsConfiguration> {
    return this.sandbox.exportConfiguration(accountId);
  }
}
