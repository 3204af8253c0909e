import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, ValidationFailedError } from '@leadflow/shared-kernel';
import { AccountView, UpdateAccountCommand, isFeature } from '@leadflow/accounts-contracts';
import { AccountNotFoundError } from '../../../domain/accounts.errors';
import { assertTimezone } from '../../../domain/timezone';
import { AccountsActivityLog } from '../../ports/accounts-activity.port';
import { ApiKeyCache } from '../../ports/api-key-cache.port';
import { AccountState, AccountsRepository } from '../../ports/accounts.repository.port';
import { toAccountView } from '../../queries/account.view';

type Changeable = Pick<AccountState, 'features' | 'apiTermsAccepted' | 'quoteDefaults' | 'timezone'>;

const WIRE_NAMES: Record<keyof Changeable, string> = {
  features: 'features',
  apiTermsAccepted: 'api_terms_accepted',
  quoteDefaults: 'quote_defaults',
  timezone: 'timezone',
};

/**
 * `PATCH /admin/v1/accounts/{id}`: quote defaults merge with the current ones; the new features apply
 * from the next request (authentication reads them with the key, and every api process forgets the
 * account's cached keys once the change commits). An `account_updated` activity entry
 * lists each changed setting `{ from, to }` (none when nothing changed). 404 `not_found`.
 */
@CommandHandler(UpdateAccountCommand)
export class UpdateAccountHandler implements ICommandHandler<UpdateAccountCommand> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly activity: AccountsActivityLog,
    private readonly cache: ApiKeyCache,
  ) {}

  async execute({ accountId, patch, actor }: UpdateAccountCommand): Promise<AccountView> {
    const given = Object.entries(patch).filter(([, value]) => value !== undefined);
    if (given.length === 0) {
      throw new DomainError('no_fields', 'Send at least one of features, api_terms_accepted, quote_defaults, timezone.', null);
    }
    if (patch.timezone !== undefined) assertTimezone(patch.timezone);
    const unknownFeature = patch.features?.findIndex((feature) => !isFeature(feature)) ?? -1;
    if (unknownFeature >= 0) {
      throw new ValidationFailedError([{ field: `features[${unknownFeature}]`, reason: 'invalid_value', message: 'Unknown feature.' }]);
    }

    const account = await this.repository.findAccount(accountId);
    if (!account) throw new AccountNotFoundError();
    const next: Partial<Changeable> = {
      ...(patch.features !== undefined ? { features: [...new Set(patch.features)] } : {}),
      ...(patch.apiTermsAccepted !== undefined ? { apiTermsAccepted: patch.apiTermsAccepted } : {}),
      ...(patch.timezone !== undefined ? { timezone: patch.timezone } : {}),
      ...(patch.quoteDefaults !== undefined ? { quoteDefaults: { ...account.quoteDefaults, ...patch.quoteDefaults } } : {}),
    };
    const changes = Object.fromEntries(
      (Object.keys(next) as (keyof Changeable)[])
        .filter((key) => JSON.stringify(account[key]) !== JSON.stringify(next[key]))
        .map((key) => [WIRE_NAMES[key], { from: account[key], to: next[key] }]),
    );
    await this.repository.updateAccount(accountId, next);
    await this.cache.invalidateAccount(accountId);
    if (Object.keys(changes).length > 0) {
      await this.activity.record(accountId, [{ type: 'account_updated', actor, data: { changes } }]);
    }
    return toAccountView({ ...account, ...next });
  }
}
