import type { AccountId } from '@leadflow/shared-kernel';
import type { SenderView } from '@leadflow/messaging-contracts';
import type { ExistingSender, Sender } from '../../domain/sender.entity';

/** Persistence of senders. Writes join the caller's unit of work; every method takes the account first. */
export abstract class SenderRepository {
  abstract listExisting(accountId: AccountId): Promise<ExistingSender[]>;
  /** An email or default already taken (concurrent write) throws 409 `duplicate_resource`. */
  abstract insert(accountId: AccountId, senders: readonly Sender[]): Promise<void>;
  abstract findDefault(accountId: AccountId): Promise<SenderView | null>;
  /** Default first, then by creation. */
  abstract list(accountId: AccountId): Promise<SenderView[]>;
}
