import { ContactsInit1767000000200 } from './infrastructure/persistence/migrations/1767000000200-contacts-init';
import { ContactsLeadCapture1767000000250 } from './infrastructure/persistence/migrations/1767000000250-contacts-lead-capture';
import { ContactsDealStage1795324390769 } from './infrastructure/persistence/migrations/1795324390769-contacts-deal-stage';
import { ContactsEmailUnsubscribes1795324654118 } from './infrastructure/persistence/migrations/1795324654118-contacts-email-unsubscribes';
import { ContactsExternalIds1795335400000 } from './infrastructure/persistence/migrations/1795335400000-contacts-external-ids';
import { ContactsPresuasionSubmissions1796412000000 } from './infrastructure/persistence/migrations/1796412000000-contacts-presuasion-submissions';
import { ContactsLeadScore1797100000000 } from './infrastructure/persistence/migrations/1797100000000-contacts-lead-score';
import { ContactsKeysByAccount1800000000200 } from './infrastructure/persistence/migrations/1800000000200-contacts-keys-by-account';

export * from './contacts-http.module';
export * from './contacts-jobs.module';

/** Migrations of the `contacts` schema, in order. */
export const contactsMigrations = [ContactsInit1767000000200, ContactsLeadCapture1767000000250, ContactsDealStage1795324390769, ContactsEmailUnsubscribes1795324654118, ContactsExternalIds1795335400000, ContactsPresuasionSubmissions1796412000000, ContactsLeadScore1797100000000, ContactsKeysByAccount1800000000200];
