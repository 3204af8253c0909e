import { DeliverOutgoingEmailHandler } from './commands/deliver-outgoing-email/deliver-outgoing-email.handler';
import { ProvisionSendersHandler } from './commands/provision-senders/provision-senders.handler';
import { QueueEmailHandler } from './commands/queue-email/queue-email.handler';
import { SeedConversationsHandler } from './commands/seed-conversations/seed-conversations.handler';
import { SendEmailHandler } from './commands/send-email/send-email.handler';
import { GetConversationHandler } from './queries/get-conversation/get-conversation.handler';
import { ListConversationMessagesHandler } from './queries/list-conversation-messages/list-conversation-messages.handler';
import { ListConversationsHandler } from './queries/list-conversations/list-conversations.handler';
import { ListEmailThreadsHandler } from './queries/list-email-threads/list-email-threads.handler';
import { ListOutgoingEmailsHandler } from './queries/list-outgoing-emails/list-outgoing-emails.handler';
import { GetDefaultSenderHandler } from './queries/get-default-sender/get-default-sender.handler';
import { ListSendersHandler } from './queries/list-senders/list-senders.handler';
import { ResetMessagingDataHandler } from './commands/reset-messaging-data/reset-messaging-data.handler';

/**
 * Every command and query handler of the messaging context (the worker's delivery attempt included),
 * declared once: MessagingCoreModule registers them for both the api and the worker.
 */
export const MESSAGING_HANDLERS = [
  DeliverOutgoingEmailHandler,
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
  ResetMessagingDataHandler,
];
