import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProvisionTagsCommand } from '@leadflow/contacts-contracts';
import { Clock, newId } from '@leadflow/shared-kernel';
import { ContactsSandboxData, ProvisionedTag } from '../../ports/contacts-sandbox-data.port';

/**
 * {@link ProvisionTagsCommand} (test mode, issue 15 item 4): creates the tags as given, each with a new
 * id, in the caller's transaction; answers `{ <name>: <id> }`.
 */
@CommandHandler(ProvisionTagsCommand)
export class ProvisionTagsHandler implements ICommandHandler<ProvisionTagsCommand> {
  constructor(
    private readonly sandbox: ContactsSandboxData,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, tags }: ProvisionTagsCommand): Promise<Record<string, string>> {
    const provisioned: ProvisionedTag[] = tags.map((tag) => ({ ...tag, id: newId() }));
    await this.sandbox.insertTags(accountId, provisioned, this.clock.now());
    const ids: Record<string, string> = {};
    for (const tag of provisioned) ids[tag.name] = tag.id;
    return ids;
  }
}
