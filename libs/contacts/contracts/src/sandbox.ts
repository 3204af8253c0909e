import { Command, Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { CustomFieldDefinitionSpec } from './contact.views';

/** One tag as configured (a campaign tag keeps its `systemKey`). */
export interface TagSpec {
  name: string;
  color: string;
  description: string | null;
  category: string | null;
  systemKey: string | null;
}

/** The contacts context's configuration of an account: custom field definitions (in position order) and tags. */
export interface ContactsConfiguration {
  customFields: CustomFieldDefinitionSpec[];
  tags: TagSpec[];
}

/** Test mode (issue 15, item 4): the account's contacts configuration, to copy into its sandbox. Never contacts. */
export class ExportContactsConfigurationQuery extends Query<ContactsConfiguration> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** Creates tags as given, in the caller's transaction; answers `{ <name>: <id> }`. For copying a configuration (names already valid and unique). */
export class ProvisionTagsCommand extends Command<Record<string, string>> {
  constructor(
    readonly accountId: AccountId,
    readonly tags: readonly TagSpec[],
  ) {
    super();
  }
}

/**
 * Test mode: deletes every contact of the (sandbox) account and what hangs off them in this context
 * (identities, notes, tags attached, external ids, lead captures, SMS hand-offs, pre-suasion submissions,
 * email unsubscribes), in the caller's transaction. Keeps tags and custom field definitions. Answers the
 * number of rows deleted per table. The caller checks the account is a sandbox.
 */
export class ResetContactsDataCommand extends Command<Record<string, number>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
