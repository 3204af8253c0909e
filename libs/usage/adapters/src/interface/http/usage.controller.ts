import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { CurrentKey, RequireScope } from '@leadflow/shared-platform';
import { UsageRange } from '@leadflow/usage-core';
import { GetUsageQuery, UsageView } from '@leadflow/usage-contracts';

/**
 * `GET /v1/usage` (public-api-v1 › Me and Usage): no scope; the calling key's usage over
 * `[from, to)` by hour or UTC day. Range errors are 400 `invalid_request` with `details.field`
 * (`from`, `to` or `granularity`) and `details.reason`. Other query parameters are ignored.
 */
@Controller('v1/usage')
export class UsageController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope(null)
  async usage(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<{ data: UsageView }> {
    const range = UsageRange.parse(query ?? {});
    return { data: await this.queries.execute(new GetUsageQuery(key.accountId, key.keyId, range.from, range.to, range.granularity)) };
  }
}
