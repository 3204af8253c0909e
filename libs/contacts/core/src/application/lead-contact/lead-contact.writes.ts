import { AccountId, Actor, IntegrationEvent, Journal } from '@leadflow/shared-kernel';
import { CONTACT_EVENTS, ContactChanges, STAGE_CHANGED_EVENT, StageChangedPayload } from '@leadflow/contacts-contracts';
import type { Contact, ContactState } from '../../domain/contact.aggregate';
import type { LeadEnrichment } from '../../domain/lead-capture/lead-enrichment';
import type { ContactIdentityRepository } from '../ports/contact-identity.repository.port';
import type { ContactsRepository } from '../ports/contacts.repository.port';
import { integrationEvent, toContactView } from '../views';

/** `stage_changed` outbox event (contacts-contracts › StageChangedPayload): webhooks and stage automations react to it. */
export function stageChanged(
  accountId: AccountId,
  actor: Actor,
  now: Date,
  contactId: string,
  pipelineId: string | null,
  fromStageId: string | null,
  toStageId: string | null,
): IntegrationEvent {
  const payload: StageChangedPayload = { contact_id: contactId, pipeline_id: pipelineId, from_stage_id: fromStageId, to_stage_id: toStageId };
  return integrationEvent(STAGE_CHANGED_EVENT, accountId, actor, now, payload);
}

/**
 * Outbox events of an existing contact enriched by a funnel's submission (lead capture in every
 * outcome, presuasion submissions): `lead_updated` with the public fields that changed (public-api-v1 ›
 * Outbound webhooks: contact updates emit `lead_updated`), and `stage_changed` when the submission
 * placed the contact in a stage. No activity entry: the submission's own entry records it (and a lead
 * capture replay must add none: Lead capture outcome).
 */
export function enrichmentEvents(accountId: AccountId, before: ContactState, after: ContactState, actor: Actor, now: Date): IntegrationEvent[] {
  const previous = toContactView(before) as unknown as Record<string, unknown>;
  const current = toContactView(after) as unknown as Record<string, unknown>;
  const changes: ContactChanges = {};
  for (const key of Object.keys(current)) {
    if (key === 'updated_at') continue;
    if (JSON.stringify(previous[key]) !== JSON.stringify(current[key])) changes[key] = { previous: previous[key] ?? null, current: current[key] ?? null };
  }
  const events: IntegrationEvent[] = [];
  if (Object.keys(changes).length > 0) {
    events.push(integrationEvent(CONTACT_EVENTS.updated, accountId, actor, now, { contact_id: after.id, contact: current, changes }));
  }
  if (after.stageId !== before.stageId) events.push(stageChanged(accountId, actor, now, after.id, after.pipelineId, before.stageId, after.stageId));
  return events;
}

/**
 * Writes what `Contact.enrichWithLead` decided for an existing contact, in the caller's unit of work and
 * in this order: the contact row (when it changed), its new primary email, its new primary phone, its
 * new secondary phone, then the enrichment's outbox events (see {@link enrichmentEvents}). `before` is
 * the state read before enriching. Throws `IdentityTakenError` when a concurrent request took an
 * identity meanwhile (the caller's attempt rolls back and starts over).
 */
export async function writeLeadEnrichment(
  ports: { contacts: ContactsRepository; identities: ContactIdentityRepository; journal: Journal },
  accountId: AccountId,
  before: ContactState,
  contact: Contact,
  enrichment: Omit<LeadEnrichment, 'next'> & { changed: boolean },
  actor: Actor,
  now: Date,
): Promise<void> {
  const { contacts, identities, journal } = ports;
  const id = contact.id;
  if (enrichment.changed) await contacts.updateContact(contact.snapshot);
  if (enrichment.primaryEmail) await identities.setPrimaryIdentity(accountId, id, 'email', enrichment.primaryEmail, now);
  if (enrichment.primaryPhone) await identities.setPrimaryIdentity(accountId, id, 'phone', enrichment.primaryPhone, now);
  if (enrichment.secondaryPhone) await identities.addSecondaryIdentity(accountId, id, 'phone', enrichment.secondaryPhone, now);
  if (enrichment.changed) await journal.record(accountId, [], enrichmentEvents(accountId, before, contact.snapshot, actor, now));
}
