import type { AccountId } from '@leadflow/shared-kernel';
import { EmailUnsubscribes } from '../application/ports/email-unsubscribes.port';

/** {@link EmailUnsubscribes} over a set of `<account>:<email>`. */
export class InMemoryEmailUnsubscribes extends EmailUnsubscribes {
  readonly addresses = new Set<string>();

  async isUnsubscribed(accountId: AccountId, email: string): Promise<boolean> {
    return this.addresses.has(`${accountId}:${email}`);
  }

  async set(accountId: AccountId, email: string, unsubscribed: boolean): Promise<void> {
    if (unsubscribed) this.addresses.add(`${accountId}:${email}`);
    else this.addresses.delete(`${accountId}:${email}`);
  }
}
