import { DeliverOutgoingEmailHandler } from './commands/deliver-outgoing-email/deliver-outgoing-email.handler';
import { ProvisionSendersHandler } from './commands/provision-senders/provision-senders.handler';
import { QueueEmailHandler } from './commands/queue-email/queue-email.handler';
import { SeedConversationsHandler } from './commands/seed-conversations/seed-conversations.handler';
import { SendEmailHandler } from './commands/send-email/send-email.handler';
import { GetConversationHandler, ListConversationMessagesHandler, ListConversationsHandler } from './queries/conversation.query-handlers';
import { ListEmailThreadsHandler } from './queries/email-thread.query-handlers';
import { ListOutgoingEmailsHandler } from './queries/outgoing-email.query-handlers';
import { GetDefaultSenderHandler, ListSendersHandler } from './queries/sender.query-handlers';

/** Every command and query handler of the messaging context but delivery (registered by its adapters modules). */
export const MESSAGING_HANDLERS = [
  ProvisionSendersHandler,
  GetDefaultSenderHandler,
  ListSendersHandler,
  QueueEmailHandler,
  ListOutgoingEmailsHandler,
  SendEmailHandler,
  ListEmailThreadsHandler,
  SeedConversationsHandler,
  ListConversationsHandler,
  GetConversationHandler,
  ListConversationMessagesHandler,
];

/** The worker's delivery attempt (needs an `EmailTransport`): registered by the jobs module only. */
export const MESSAGING_DELIVERY_HANDLERS = [DeliverOutgoingEmailHandler];
