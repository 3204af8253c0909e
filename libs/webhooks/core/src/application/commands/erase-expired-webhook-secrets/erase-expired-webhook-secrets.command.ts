import { Command } from '@nestjs/cqrs';

/** Erases the previous secrets whose 24-hour overlap ended (the sweeper's pass); answers how many. */
export class EraseExpiredWebhookSecretsCommand extends Command<number> {}
