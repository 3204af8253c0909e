import { AccountId, Actor, centsToDollars, IntegrationEvent, newId } from '@leadflow/shared-kernel';
import type { ContactLifecycleView, ContactView, CustomFieldDefinitionView, TagView } from '@leadflow/contacts-contracts';
import type { ContactState } from '../domain/contact.aggregate';
import type { CustomFieldDefinition } from '../domain/custom-fields';
import type { TagState } from './ports/tag.repository.port';

/** The contact read shape (operator-api › Contact read shape); `client_contact_tags` when `tags` is given. */
export function toContactView(state: ContactState, tags?: TagView[]): ContactView {
  return {
    id: state.id,
    first_name: state.firstName,
    last_name: state.lastName,
    email: state.email,
    phone: state.phone,
    company: state.company,
    deal_value: centsToDollars(state.dealValueCents),
    custom_fields: { ...state.customFields },
    is_priority: state.isPriority,
    notes: state.notes,
    system_id: state.systemId,
    source: state.source,
    score: state.score,
    archived_at: state.archivedAt ? state.archivedAt.toISOString() : null,
    disqualified_at: state.disqualifiedAt ? state.disqualifiedAt.toISOString() : null,
    created_at: state.createdAt.toISOString(),
    updated_at: state.updatedAt.toISOString(),
    ...(tags ? { client_contact_tags: tags } : {}),
  };
}

/** The contact view with its merge state (operator lifecycle actions). */
export function toLifecycleView(state: ContactState): ContactLifecycleView {
  return { ...toContactView(state), merged_into_contact_id: state.mergedIntoId };
}

export function toTagView(tag: TagState): TagView {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    description: tag.description,
    category: tag.category,
    system_key: tag.systemKey,
    created_at: tag.createdAt.toISOString(),
  };
}

export function toDefinitionView(definition: CustomFieldDefinition): CustomFieldDefinitionView {
  return { id: definition.id, name: definition.name, type: definition.type, options: definition.options };
}

/** An outbox event of this context. */
export function integrationEvent(type: string, accountId: AccountId, actor: Actor, occurredAt: Date, payload: Record<string, unknown>): IntegrationEvent {
  return { id: newId(), type, accountId, actor, occurredAt, payload };
}
