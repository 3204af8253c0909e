import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** A team member as messaging needs it (test sends go to active team members only). */
export interface TeamMemberRecipient {
  email: string;
  firstName: string | null;
  isActive: boolean;
}

/** What the account knows of a recipient address (contacts context). */
export interface KnownRecipient {
  contact: { id: string; first_name: string | null; last_name: string | null; email: string | null; phone: string | null; company: string | null } | null;
  unsubscribed: boolean;
}

/** Other contexts' answers messaging needs (accounts' team members, contacts' address lookup), through their contracts. */
export abstract class MessagingDirectory {
  /** The team member with this address (lowercase), active or not, or null. */
  abstract teamMember(accountId: AccountId, email: string): Promise<TeamMemberRecipient | null>;
  abstract recipient(accountId: AccountId, email: string): Promise<KnownRecipient>;
}

/** The contact's history (activity log / timeline): what a real send leaves behind. */
export abstract class ContactHistory {
  /** Records `email_queued` on the contact's timeline, in the caller's unit of work. */
  abstract emailQueued(accountId: AccountId, contactId: string, actor: Actor, data: { email_id: string; thread_id: string | null; subject: string; to: string }): Promise<void>;
}
