import { Controller, Get } from '@nestjs/common';
import { ApiKeyPrincipal, ApiKeyView } from '@leadflow/accounts-contracts';
import { toApiKeyView } from '@leadflow/accounts-core';
import { Clock } from '@leadflow/shared-kernel';
import { CurrentKey, RequireScope } from '@leadflow/shared-platform';

/**
 * `GET /v1/me` (public-api-v1 › Me and Usage): no scope; consumes one unit of the hourly quota like any
 * call. Answered from the key authentication resolved (no SQL on this route).
 */
@Controller('v1/me')
export class MeController {
  constructor(private readonly clock: Clock) {}

  @Get()
  @RequireScope(null)
  me(@CurrentKey() key: ApiKeyPrincipal): { data: ApiKeyView } {
    return { data: toApiKeyView(key, this.clock.now()) };
  }
}
