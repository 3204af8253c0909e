import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetAccountQuery } from '@leadflow/accounts-contracts';
import { asAccountId, Page, ResourceNotFoundError } from '@leadflow/shared-kernel';
import { readPageRequest } from '@leadflow/shared-platform';
import { ListWebhookDeliveriesQuery, WebhookDeliveryView } from '@leadflow/webhooks-contracts';
import { accountIdParam } from './uuid-or-404.pipe';

/**
 * `GET /admin/v1/accounts/{account_id}/webhook-deliveries` (operator-api › Further operator endpoints):
 * the account's webhook deliveries, newest first (`created_at DESC, id DESC`), `cursor` and `limit`
 * (1–100, default 20): `id` (delivery id), `subscription_id`, `event`, `status` (`pending`, `retrying`,
 * `succeeded`, `failed`), `attempt` (attempts made), `response_status` (of the last attempt),
 * `next_attempt_at`, `created_at`. 404 `not_found` for an unknown account or a non-UUID id.
 */
@Controller('admin/v1/accounts/:account_id/webhook-deliveries')
export class WebhookDeliveriesAdminController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Param('account_id', accountIdParam()) accountId: string, @Query() query: Record<string, unknown>): Promise<Page<WebhookDeliveryView>> {
    const page = readPageRequest(query);
    const account = asAccountId(accountId);
    if (!(await this.queries.execute(new GetAccountQuery(account)))) {
      throw new ResourceNotFoundError('not_found', 'No such account.', { resource: 'account' });
    }
    return this.queries.execute(new ListWebhookDeliveriesQuery(account, page));
  }
}
