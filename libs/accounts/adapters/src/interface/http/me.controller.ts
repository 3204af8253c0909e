import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiKeyPrincipal, ApiKeyView, GetApiKeyQuery } from '@leadflow/accounts-contracts';
import { CurrentKey, RequireScope } from '@leadflow/shared-platform';

/** `GET /v1/me` (public-api-v1 › Me and Usage): no scope; consumes one unit of the hourly quota like any call. */
@Controller('v1/me')
export class MeController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope(null)
  async me(@CurrentKey() key: ApiKeyPrincipal): Promise<{ data: ApiKeyView }> {
    return { data: await this.queries.execute(new GetApiKeyQuery(key.accountId, key.keyId)) };
  }
}
