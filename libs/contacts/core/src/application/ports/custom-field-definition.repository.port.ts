import type { AccountId } from '@leadflow/shared-kernel';
import type { CustomFieldDefinition } from '../../domain/custom-fields';

/**
 * The account's custom-field definitions (`contacts.custom_field_definitions`, in position order).
 * Writes invalidate lead capture's cached settings once committed; joins the caller's unit of work.
 */
export abstract class CustomFieldDefinitionRepository {
  abstract listDefinitions(accountId: AccountId): Promise<CustomFieldDefinition[]>;
  abstract insertDefinitions(accountId: AccountId, definitions: readonly CustomFieldDefinition[], at: Date): Promise<void>;
}
