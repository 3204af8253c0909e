import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AccountEmailView, ListAccountEmailsQuery } from '@leadflow/operator-core';
import { asAccountId, Page } from '@leadflow/shared-kernel';
import { readPageRequest } from '@leadflow/shared-platform';
import { accountIdParam } from './uuid-or-404.pipe';

/**
 * `GET /admin/v1/accounts/{account_id}/emails` (operator-api › Further operator endpoints): the
 * account's outgoing emails, newest first, with `cursor` and `limit` (1–100, default 20): `id`, `to`,
 * `subject`, `status`, `type`, `priority`, `is_test`, `created_at`. 404 `not_found` for an unknown
 * account (or a non-UUID id); another account's emails are never listed.
 */
@Controller('admin/v1/accounts/:account_id/emails')
export class EmailsAdminController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  list(@Param('account_id', accountIdParam()) accountId: string, @Query() query: Record<string, unknown>): Promise<Page<AccountEmailView>> {
    return this.queries.execute(new ListAccountEmailsQuery(asAccountId(accountId), readPageRequest(query)));
  }
}
