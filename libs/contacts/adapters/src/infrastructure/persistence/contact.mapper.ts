import { asAccountId } from '@leadflow/shared-kernel';
import type { ContactState, CustomFieldDefinition, TagState } from '@leadflow/contacts-core';
import type { ContactRecord, CustomFieldDefinitionRecord, TagRecord } from './contacts.records';

/** Domain state ↔ TypeORM rows of the contacts schema (persistence only; views are built in core). */
export const ContactMapper = {
  toState(record: ContactRecord): ContactState {
    return {
      id: record.id,
      accountId: asAccountId(record.accountId),
      firstName: record.firstName,
      lastName: record.lastName,
      email: record.email,
      phone: record.phone,
      company: record.company,
      dealValueCents: record.dealValueCents === null ? null : Number(record.dealValueCents),
      customFields: record.customFields ?? {},
      isPriority: record.isPriority,
      notes: record.notes,
      source: record.source,
      systemId: record.systemId,
      pipelineId: record.pipelineId,
      stageId: record.stageId,
      salesRepId: record.salesRepId,
      attribution: record.attribution ?? {},
      addressParts: {
        address: record.address,
        postalCode: record.postalCode,
        addressPlaceId: record.addressPlaceId,
        street: record.street,
        city: record.city,
        sector: record.sector,
        province: record.province,
        country: record.country,
      },
      sourceLabel: record.sourceLabel,
      expectedCloseDate: record.expectedCloseDate,
      archivedAt: record.archivedAt,
      mergedIntoId: record.mergedIntoId,
      mergedAt: record.mergedAt,
      disqualifiedAt: record.disqualifiedAt,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  },

  toRecord(state: ContactState): ContactRecord {
    const { addressParts, dealValueCents, ...rest } = state;
    return { ...rest, ...addressParts, dealValueCents: dealValueCents === null ? null : String(dealValueCents) } as ContactRecord;
  },

  toTag(record: TagRecord): TagState {
    return {
      id: record.id,
      name: record.name,
      color: record.color,
      description: record.description,
      category: record.category,
      systemKey: record.systemKey,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  },

  toDefinition(record: CustomFieldDefinitionRecord): CustomFieldDefinition {
    return { id: record.id, name: record.name, type: record.type, options: record.options };
  },
};

/** The PostgreSQL unique-violation (23505) behind a TypeORM error, or null. */
export function uniqueViolation(error: unknown): { constraint?: string; detail?: string } | null {
  const driver = ((error as { driverError?: unknown })?.driverError ?? error) as { code?: string; constraint?: string; detail?: string } | null;
  return driver && driver.code === '23505' ? driver : null;
}
