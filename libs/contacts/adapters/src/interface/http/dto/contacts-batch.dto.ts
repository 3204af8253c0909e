import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { BATCH_MAX_INPUTS } from '@leadflow/contacts-core';

/**
 * Body of `POST /v1/contacts/batch`: `inputs`, 1 to 100 items (400 `validation_error` on `inputs`:
 * `required`, `invalid_type`, `too_few`, `too_many`). Each item is checked on its own by the use case
 * (a bad item is an `error` result, not a refusal of the request).
 */
export class ContactsBatchDto {
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(BATCH_MAX_INPUTS) inputs!: unknown[];
}
