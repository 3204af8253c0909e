import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, newId, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { DefineCustomFieldsCommand } from '@leadflow/contacts-contracts';
import { checkDefinitionSpecs, CustomFieldDefinition } from '../../../domain/custom-fields';
import { CustomFieldDefinitionRepository } from '../../ports/custom-field-definition.repository.port';

/**
 * Published {@link DefineCustomFieldsCommand} (blueprint `custom_fields`): 400 `validation_error` with
 * `custom_fields[<i>].<member>` for a blank, too long or repeated name (also against the account's
 * existing definitions), an unknown type, or `select` options missing or repeated. Returns `{ name: id }`.
 */
@CommandHandler(DefineCustomFieldsCommand)
export class DefineCustomFieldsHandler implements ICommandHandler<DefineCustomFieldsCommand> {
  constructor(
    private readonly definitions: CustomFieldDefinitionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, definitions }: DefineCustomFieldsCommand): Promise<Record<string, string>> {
    if (definitions.length === 0) return {};
    return this.unitOfWork.run(async () => {
      const existing = await this.definitions.listDefinitions(accountId);
      const violations = checkDefinitionSpecs(definitions, new Set(existing.map((definition) => definition.name)));
      if (violations.length > 0) throw new ValidationFailedError(violations);
      const created: CustomFieldDefinition[] = definitions.map((spec) => ({
        id: newId(),
        name: spec.name.trim(),
        type: spec.type,
        options: spec.type === 'select' ? [...(spec.options ?? [])] : null,
      }));
      await this.definitions.insertDefinitions(accountId, created, this.clock.now());
      return Object.fromEntries(created.map((definition) => [definition.name, definition.id]));
    });
  }
}
