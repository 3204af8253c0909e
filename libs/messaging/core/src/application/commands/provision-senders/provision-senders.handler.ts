import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { ProvisionedSenders, ProvisionSendersCommand } from '@leadflow/messaging-contracts';
import { provisionSenders } from '../../../domain/sender.entity';
import { SenderRepository } from '../../ports/sender.repository.port';

/** Operator blueprint `senders`: validates, then writes (caller's transaction). */
@CommandHandler(ProvisionSendersCommand)
export class ProvisionSendersHandler implements ICommandHandler<ProvisionSendersCommand> {
  constructor(
    private readonly repository: SenderRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, senders: specs }: ProvisionSendersCommand): Promise<ProvisionedSenders> {
    if (specs.length === 0) return {};
    const senders = provisionSenders(specs, await this.repository.listExisting(accountId), this.clock.now());
    await this.repository.insert(accountId, senders);
    return Object.fromEntries(senders.map((sender) => [sender.email, sender.id]));
  }
}
