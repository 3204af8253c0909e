import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, FieldViolation, UnitOfWork, ValidationFailedError, newId } from '@leadflow/shared-kernel';
import { ProvisionEventsCommand, ProvisionedEvents } from '@leadflow/events-contracts';
import type { EventState } from '../../../domain/registration-rules';
import { EventsRepository } from '../../ports/events.ports';

/**
 * Blueprint member `events` (operator-api › POST /admin/v1/accounts): see {@link ProvisionEventsCommand}.
 * Shapes (slug pattern, statuses, ISO dates, language codes) are checked by the operator DTO; this
 * handler checks what needs the whole list or the account: duplicate slugs, duplicate languages,
 * editions ending at or before their start. Joins the caller's unit of work.
 */
@CommandHandler(ProvisionEventsCommand)
export class ProvisionEventsHandler implements ICommandHandler<ProvisionEventsCommand> {
  constructor(
    private readonly events: EventsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, events: specs }: ProvisionEventsCommand): Promise<ProvisionedEvents> {
    if (specs.length === 0) return {};
    const violations: FieldViolation[] = [];
    const taken = new Set(await this.events.slugsTaken(accountId, specs.map((spec) => spec.slug)));
    const seen = new Set<string>();
    specs.forEach((spec, index) => {
      if (seen.has(spec.slug) || taken.has(spec.slug)) violations.push({ field: `events[${index}].slug`, reason: 'duplicate', message: `slug "${spec.slug}" is used twice.` });
      seen.add(spec.slug);
      if (spec.languages.length === 0) violations.push({ field: `events[${index}].languages`, reason: 'too_few', message: 'An event needs at least one language.' });
      if (new Set(spec.languages).size !== spec.languages.length) violations.push({ field: `events[${index}].languages`, reason: 'duplicate', message: 'A language is listed twice.' });
      spec.editions.forEach((edition, position) => {
        if (Date.parse(edition.endsAt) <= Date.parse(edition.startsAt)) {
          violations.push({ field: `events[${index}].editions[${position}].ends_at`, reason: 'invalid_value', message: 'ends_at must be after starts_at.' });
        }
      });
    });
    if (violations.length > 0) throw new ValidationFailedError(violations);
    const now = this.clock.now();
    const states: EventState[] = specs.map((spec) => {
      const id = newId();
      return {
        id,
        accountId,
        slug: spec.slug,
        name: spec.name,
        status: spec.status,
        languages: [...spec.languages],
        createdAt: now,
        editions: spec.editions.map((edition, position) => ({
          id: newId(),
          eventId: id,
          name: edition.name,
          startsAt: new Date(edition.startsAt),
          endsAt: new Date(edition.endsAt),
          status: edition.status,
          position,
        })),
      };
    });
    await this.unitOfWork.run(() => this.events.insertEvents(accountId, states));
    return Object.fromEntries(states.map((state) => [state.slug, { id: state.id, editions: state.editions.map((edition) => edition.id) }]));
  }
}
