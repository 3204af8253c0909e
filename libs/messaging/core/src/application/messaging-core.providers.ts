import { ProvisionSendersHandler } from './commands/provision-senders/provision-senders.handler';
import { GetDefaultSenderHandler, ListSendersHandler } from './queries/sender.query-handlers';

/** Every command and query handler of the messaging context (registered by its adapters modules). */
export const MESSAGING_HANDLERS = [ProvisionSendersHandler, GetDefaultSenderHandler, ListSendersHandler];
