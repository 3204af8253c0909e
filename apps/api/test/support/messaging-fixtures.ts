import { CommandBus } from '@nestjs/cqrs';
import { SetEmailUnsubscribedCommand } from '@leadflow/contacts-contracts';
import { OutgoingEmailRequest, QueueEmailCommand, QueuedEmail } from '@leadflow/messaging-contracts';
import { asAccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import type { ProvisionedAccount, TestApi, TestResponse } from './test-api';

/** Team members of the messaging test accounts: an active one, an inactive one. */
export const ACTIVE_MEMBER = 'julie@tremblay.test';
export const INACTIVE_MEMBER = 'marc@tremblay.test';
export const DEFAULT_SENDER = 'bonjour@tremblay.test';

/** An account with the emails and conversations modules, a default sender, two team members and keys of several scope sets. */
export function messagingBlueprint(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    team_members: [
      { email: ACTIVE_MEMBER, first_name: 'Julie', last_name: 'Roy', is_active: true, is_sales_rep: true },
      { email: INACTIVE_MEMBER, first_name: 'Marc', last_name: 'Gagnon', is_active: false },
    ],
    senders: [{ email: DEFAULT_SENDER, name: 'Rénovations Tremblay', is_default: true }],
    api_keys: [
      { name: 'full', preset: 'full_integration', per_hour: 100000 },
      { name: 'sender', scopes: ['email:send'], per_hour: 100000 },
      { name: 'reader', scopes: ['email:read', 'conversations:read'], per_hour: 100000 },
      { name: 'contacts', scopes: ['contacts:read'], per_hour: 100000 },
    ],
    ...extra,
  };
}

export function sendEmail(api: TestApi, token: string, body: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  return api.request({ method: 'POST', path: '/v1/emails/send', token, body, headers });
}

/** A platform test button's send (or a quote's email): QueueEmailCommand in its own transaction. */
export function queueEmail(api: TestApi, account: ProvisionedAccount, overrides: Partial<OutgoingEmailRequest> = {}): Promise<QueuedEmail> {
  return api.app.get(TransactionHost).run(() =>
    api.app.get(CommandBus).execute(
      new QueueEmailCommand(asAccountId(account.account_id), {
        to: 'nadia@example.com',
        subject: 'Essai',
        html: '<p>Essai</p>',
        type: 'test',
        priority: 1,
        ...overrides,
      }),
    ),
  );
}

/** Puts an address on the account's unsubscribe list. */
export function unsubscribe(api: TestApi, account: ProvisionedAccount, email: string): Promise<unknown> {
  return api.app.get(CommandBus).execute(new SetEmailUnsubscribedCommand(asAccountId(account.account_id), email, true));
}

/** The sample conversations of the conversation tests (operator-api › `conversations[]`). */
export const SAMPLE_CONVERSATIONS = [
  {
    agent_slug: 'sofia',
    agent_identity_id: null,
    source: 'website',
    contact_email: 'Nadia@Example.com',
    messages: [
      { role: 'user', author_kind: 'visitor', content: 'Bonjour' },
      { role: 'assistant', author_kind: 'ai_agent', content: 'Bonjour![[pause]]Comment puis-je vous aider?[[pause:1200]]' },
      { role: 'assistant', author_kind: 'ai_agent', content: '[[pause:800]]' },
      { role: 'assistant', author_kind: 'sales_rep', author_name: 'Julie', content: 'Je prends le relais.' },
    ],
  },
  { agent_slug: 'sofia', agent_identity_id: 'identity-fr', source: 'facebook', contact_email: null, messages: [{ role: 'user', author_kind: 'visitor', content: 'Allo' }] },
  { agent_slug: 'leo', agent_identity_id: 'identity-fr', source: 'website', messages: [] },
];
