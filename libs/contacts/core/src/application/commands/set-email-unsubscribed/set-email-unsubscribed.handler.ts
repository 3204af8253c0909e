import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, normalizeEmail, ValidationFailedError } from '@leadflow/shared-kernel';
import { SetEmailUnsubscribedCommand } from '@leadflow/contacts-contracts';
import { EmailUnsubscribes } from '../../ports/email-unsubscribes.port';

/** Published command: adds an address to the account's unsubscribe list, or takes it off. */
@CommandHandler(SetEmailUnsubscribedCommand)
export class SetEmailUnsubscribedHandler implements ICommandHandler<SetEmailUnsubscribedCommand> {
  constructor(
    private readonly unsubscribes: EmailUnsubscribes,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, email, unsubscribed }: SetEmailUnsubscribedCommand): Promise<{ email: string; unsubscribed: boolean }> {
    const address = normalizeEmail(email);
    if (!address) throw new ValidationFailedError([{ field: 'email', reason: 'invalid_format', message: 'email is not a valid address.' }]);
    await this.unsubscribes.set(accountId, address, unsubscribed, this.clock.now());
    return { email: address, unsubscribed };
  }
}
