import { MessagingInit1767000000500 } from './infrastructure/persistence/migrations/1767000000500-messaging-init';
import { MessagingOutgoingEmails1795324666428 } from './infrastructure/persistence/migrations/1795324666428-messaging-outgoing-emails';
import { MessagingThreadsConversations1795341000000 } from './infrastructure/persistence/migrations/1795341000000-messaging-threads-conversations';
import { MessagingKeysByAccount1800000000500 } from './infrastructure/persistence/migrations/1800000000500-messaging-keys-by-account';

export * from './messaging-http.module';
export * from './messaging-jobs.module';
export { DELIVER_EMAIL_JOB, EMAIL_DELIVERY_ATTEMPTS, EMAIL_DELIVERY_QUEUE, OUTGOING_EMAILS_CONSUMER } from './interface/jobs/email-delivery.job';

/** Migrations of the `messaging` schema, in order. */
export const messagingMigrations = [MessagingInit1767000000500, MessagingOutgoingEmails1795324666428, MessagingThreadsConversations1795341000000, MessagingKeysByAccount1800000000500];
