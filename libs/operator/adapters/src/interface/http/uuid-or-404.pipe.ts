import { Injectable, PipeTransform } from '@nestjs/common';
import { isUuid, ResourceNotFoundError } from '@leadflow/shared-kernel';

/**
 * Path ids: a non-UUID `{id}` answers like a missing resource (CONTRIBUTING › Rules of the request
 * path): 404 `not_found` with `details.resource`, the same body as an unknown id.
 */
@Injectable()
export class UuidOr404Pipe implements PipeTransform<unknown, string> {
  constructor(
    private readonly resource: string,
    private readonly message: string,
  ) {}

  transform(value: unknown): string {
    if (!isUuid(value)) throw new ResourceNotFoundError('not_found', this.message, { resource: this.resource });
    return value.toLowerCase();
  }
}

export const accountIdParam = () => new UuidOr404Pipe('account', 'No such account.');
export const apiKeyIdParam = () => new UuidOr404Pipe('api_key', 'No such API key.');
