import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetBookingsDataCommand } from '@leadflow/bookings-contracts';
import { BookingsSandboxData } from '../../ports/bookings-sandbox-data.port';

/**
 * {@link ResetBookingsDataCommand} (test mode, issue 15 item 4): deletes the account's bookings and their
 * host calendar entries in the caller's transaction; calendars and hosts' blocked times stay. Answers rows
 * deleted per table.
 */
@CommandHandler(ResetBookingsDataCommand)
export class ResetBookingsDataHandler implements ICommandHandler<ResetBookingsDataCommand> {
  constructor(private readonly sandbox: BookingsSandboxData) {}

  execute({ accountId }: ResetBookingsDataCommand): Promise<Record<string, number>> {
    return this.sandbox.deleteAccountData(accountId);
  }
}
