import { Module } from '@nestjs/common';
import { CONTACTS_SANDBOX_HANDLERS } from './infrastructure/sandbox/contacts-sandbox.handlers';

/**
 * Test mode (issue 15, item 4) for the api app: the contacts context's published sandbox commands and
 * queries (copy of a live account's configuration into its sandbox, reset of a sandbox's data), run by
 * the operator API inside its own transaction.
 */
@Module({ providers: [...CONTACTS_SANDBOX_HANDLERS] })
export class ContactsSandboxModule {}
