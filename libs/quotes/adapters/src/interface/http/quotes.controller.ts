import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { Actor, InvalidRequestError, Page, ValidationFailedError } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, readPageRequest, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import { QUOTE_STATUSES, QuoteStatus, QuoteView } from '@leadflow/quotes-contracts';
import { CreateQuoteCommand, GetQuoteQuery, ListQuotesQuery, SendQuoteCommand, UpdateQuoteCommand } from '@leadflow/quotes-core';
import { CreateQuoteDto, UpdateQuoteDto } from './dto/quote.dto';


/**
 * `/v1/quotes` (public-api-v1 › Endpoints › Quotes), plan module `quotes`. A non-UUID, missing,
 * archived or other account's `{id}` answers 404 `resource_not_found` alike.
 */
@Controller('v1/quotes')
@RequireFeature('quotes')
export class QuotesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Archived quotes excluded; `status` (one of the statuses, else 400 `validation_error`), `cursor`, `limit`. */
  @Get()
  @RequireScope('quotes:read')
  list(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<QuoteView>> {
    const page = readPageRequest(query);
    const status = query.status;
    if (status !== undefined && (typeof status !== 'string' || !(QUOTE_STATUSES as readonly string[]).includes(status))) {
      if (typeof status !== 'string') throw new InvalidRequestError('status', 'invalid_value', 'status must be given once.');
      throw new ValidationFailedError([{ field: 'status', reason: 'invalid_value', message: `status must be one of ${QUOTE_STATUSES.join(', ')}.` }]);
    }
    return this.queries.execute(new ListQuotesQuery(key.accountId, { status: (status as QuoteStatus | undefined) ?? null, page }));
  }

  @Get(':id')
  @RequireScope('quotes:read')
  async get(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<{ data: QuoteView }> {
    return { data: await this.queries.execute(new GetQuoteQuery(key.accountId, id)) };
  }

  /** 201 `{ data: quote }`; Idempotency-Key honoured. Errors: see CreateQuoteHandler. */
  @Post()
  @RequireScope('quotes:write')
  async create(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: CreateQuoteDto): Promise<{ data: QuoteView }> {
    const quote = await this.commands.execute(
      new CreateQuoteCommand(
        key.accountId,
        {
          contactId: body.contact_id,
          prospectName: body.prospect_name,
          prospectEmail: body.prospect_email,
          prospectPhone: body.prospect_phone,
          prospectCompany: body.prospect_company,
          prospectAddress: body.prospect_address,
          language: body.language,
          validUntil: body.valid_until,
          paymentTerms: body.payment_terms,
          lineItems: body.line_items?.map((item) => ({ description: item.description, quantity: item.quantity, unitPrice: item.unit_price })),
          internalNotes: body.internal_notes,
          salesRepId: body.sales_rep_id,
          taxProfileId: body.tax_profile_id,
          signaturePaymentOrder: body.signature_payment_order,
          taxExemptReason: body.tax_exempt_reason,
        },
        actor,
      ),
    );
    return { data: quote };
  }

  /** Rules 1–6: see UpdateQuoteHandler. */
  @Patch(':id')
  @RequireScope('quotes:write')
  async update(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: UpdateQuoteDto): Promise<{ data: QuoteView }> {
    const quote = await this.commands.execute(
      new UpdateQuoteCommand(
        key.accountId,
        id,
        {
          prospectName: body.prospect_name,
          prospectEmail: body.prospect_email,
          prospectPhone: body.prospect_phone,
          prospectCompany: body.prospect_company,
          prospectAddress: body.prospect_address,
          validUntil: body.valid_until,
          paymentTerms: body.payment_terms,
          internalNotes: body.internal_notes,
          salesRepId: body.sales_rep_id,
          taxProfileId: body.tax_profile_id,
          paymentPlanType: body.payment_plan_type,
          paymentDepositType: body.payment_deposit_type,
          paymentDepositValue: body.payment_deposit_value,
          paymentInstallmentsCount: body.payment_installments_count,
          paymentIntervalDays: body.payment_interval_days,
          paymentExecutionMode: body.payment_execution_mode,
          signaturePaymentOrder: body.signature_payment_order,
          taxExemptReason: body.tax_exempt_reason,
          status: body.status,
        },
        actor,
      ),
    );
    return { data: quote };
  }

  /** 200 `{ data: quote }` with status `sent`. No body used. Rejections: see SendQuoteHandler and Quote.assertSendable. */
  @Post(':id/send')
  @HttpCode(200)
  @RequireScope('quotes:write')
  async send(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<{ data: QuoteView }> {
    return { data: await this.commands.execute(new SendQuoteCommand(key.accountId, id, actor)) };
  }
}
