import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsDefined, IsIn, IsString } from 'class-validator';
import { ApplyQuoteLeadActionCommand, LEAD_ACTIONS, LEAD_ACTOR, LeadAction, QuoteView } from '@leadflow/quotes-contracts';
import { Actor, asAccountId } from '@leadflow/shared-kernel';
import { RequestActor } from '@leadflow/shared-platform';
import { accountIdParam } from './uuid-or-404.pipe';

/** Body of `lead-actions`: `action` one of `view`, `sign`, `decline`, `pay` (400 `validation_error` otherwise). */
export class LeadActionDto {
  @IsDefined() @IsString() @IsIn(LEAD_ACTIONS) action!: LeadAction;
}

/**
 * What the lead does on the public quote page, driven by the operator (operator-api › Further operator
 * endpoints): `POST /admin/v1/accounts/{account_id}/quotes/{quote_id}/lead-actions`, 200 `{ data: quote }`.
 * The actor recorded is the lead (LEAD_ACTOR, carrying the request's id). The quotes context's published ApplyQuoteLeadActionCommand applies it (from-states and 409 refusals
 * there). A missing, archived or other account's quote (or a non-UUID id) answers 404 `resource_not_found`.
 */
@Controller('admin/v1/accounts/:account_id/quotes/:quote_id')
export class QuotesAdminController {
  constructor(private readonly commands: CommandBus) {}

  @Post('lead-actions')
  @HttpCode(200)
  async leadAction(
    @Param('account_id', accountIdParam()) accountId: string,
    @Param('quote_id') quoteId: string,
    @Body() body: LeadActionDto,
    @RequestActor(LEAD_ACTOR) lead: Actor,
  ): Promise<{ data: QuoteView }> {
    return { data: await this.commands.execute(new ApplyQuoteLeadActionCommand(asAccountId(accountId), quoteId, body.action, lead)) };
  }
}
