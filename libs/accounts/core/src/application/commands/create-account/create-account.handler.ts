import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, FieldViolation, ValidationFailedError, asAccountId, newId } from '@leadflow/shared-kernel';
import { CreateAccountCommand, CreatedAccount, FEATURES } from '@leadflow/accounts-contracts';
import { assertTimezone } from '../../../domain/timezone';
import { AccountsActivityLog } from '../../ports/accounts-activity.port';
import { AccountsRepository, SystemState, TeamMemberState } from '../../ports/accounts.repository.port';
import { AccountsSettings } from '../../ports/accounts-settings.port';
import { issueApiKey } from '../api-key-issuer';

export const DEFAULT_QUOTE_DEFAULTS = {
  validity_days: 30,
  payment_terms: null,
  signature_payment_order: 'signature_first',
  tax_profile: 'gst_qst',
};

export const DEFAULT_TIMEZONE = 'America/Montreal';

/**
 * Creates the account, its Systems (a `Main` System when none is given; the first active one is main
 * when none is flagged; two main Systems give 400 `validation_error`), team members and API keys.
 * The time zone must be an IANA zone (`invalid_timezone`); System names, member emails and key names
 * are the keys of the response, so each must be unique (`duplicate`).
 * Runs inside the caller's unit of work (the operator blueprint transaction).
 */
@CommandHandler(CreateAccountCommand)
export class CreateAccountHandler implements ICommandHandler<CreateAccountCommand> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly activity: AccountsActivityLog,
    private readonly settings: AccountsSettings,
    private readonly clock: Clock,
  ) {}

  async execute({ blueprint, actor }: CreateAccountCommand): Promise<CreatedAccount> {
    const timezone = blueprint.timezone ?? DEFAULT_TIMEZONE;
    assertTimezone(timezone);
    assertUnique([
      ...duplicatesOf(blueprint.systems ?? [], (system) => system.name, 'systems', 'name'),
      ...duplicatesOf(blueprint.teamMembers ?? [], (member) => member.email.toLowerCase(), 'team_members', 'email'),
      ...duplicatesOf(blueprint.apiKeys ?? [], (key) => key.name, 'api_keys', 'name'),
    ]);

    const now = this.clock.now();
    const accountId = asAccountId(newId());
    await this.repository.insertAccount({
      id: accountId,
      name: blueprint.name,
      timezone,
      features: [...new Set(blueprint.features ?? FEATURES)],
      apiTermsAccepted: blueprint.apiTermsAccepted ?? false,
      quoteDefaults: { ...DEFAULT_QUOTE_DEFAULTS, ...(blueprint.quoteDefaults ?? {}) },
      createdAt: now,
      mode: blueprint.sandboxOf ? 'test' : 'live',
      sandboxOf: blueprint.sandboxOf ?? null,
    });

    const systems = this.systemsOf(blueprint.systems ?? [], now);
    await this.repository.insertSystems(accountId, systems);

    const members: TeamMemberState[] = (blueprint.teamMembers ?? []).map((member) => ({
      id: newId(),
      email: member.email.toLowerCase(),
      firstName: member.firstName ?? null,
      lastName: member.lastName ?? null,
      isActive: member.isActive ?? true,
      isSalesRep: member.isSalesRep ?? false,
      canDeleteProspects: member.canDeleteProspects ?? false,
      createdAt: now,
    }));
    await this.repository.insertTeamMembers(accountId, members);

    const issuing = { repository: this.repository, activity: this.activity, clock: this.clock, defaultPerHour: this.settings.defaultKeyPerHour };
    const apiKeys: CreatedAccount['apiKeys'] = {};
    for (const [index, spec] of (blueprint.apiKeys ?? []).entries()) {
      apiKeys[spec.name] = await issueApiKey(issuing, accountId, spec, { members, actor, field: `api_keys[${index}]`, mode: blueprint.sandboxOf ? 'test' : 'live' });
    }
    return {
      accountId,
      apiKeys,
      systems: Object.fromEntries(systems.map((system) => [system.name, system.id])),
      teamMembers: Object.fromEntries(members.map((member) => [member.email, member.id])),
    };
  }

  private systemsOf(specs: NonNullable<CreateAccountCommand['blueprint']['systems']>, now: Date): SystemState[] {
    if (specs.length === 0) return [{ id: newId(), name: 'Main', isMain: true, isActive: true, createdAt: now }];
    const mains = specs.filter((spec) => spec.isMain);
    if (mains.length > 1) {
      throw new ValidationFailedError([{ field: 'systems', reason: 'invalid_value', message: 'At most one System can be the main one.' }]);
    }
    const mainIndex = mains.length === 1 ? specs.indexOf(mains[0]) : Math.max(0, specs.findIndex((spec) => spec.isActive !== false));
    return specs.map((spec, index) => ({
      id: newId(),
      name: spec.name,
      isMain: index === mainIndex,
      isActive: index === mainIndex ? true : spec.isActive ?? true,
      createdAt: now,
    }));
  }
}

/** `{ field: '<list>[i].<member>', reason: 'duplicate' }` for every item whose key an earlier item already has. */
function duplicatesOf<T>(items: readonly T[], keyOf: (item: T) => string, list: string, member: string): FieldViolation[] {
  const seen = new Set<string>();
  const violations: FieldViolation[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) violations.push({ field: `${list}[${index}].${member}`, reason: 'duplicate', message: `"${key}" is given twice.` });
    seen.add(key);
  });
  return violations;
}

function assertUnique(violations: FieldViolation[]): void {
  if (violations.length > 0) throw new ValidationFailedError(violations);
}
