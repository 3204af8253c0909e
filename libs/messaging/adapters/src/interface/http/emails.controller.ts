import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { Actor, Page } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, readPageRequest, RequireFeature, RequireScope } from '@leadflow/shared-platform';
import { EmailThreadView, ListEmailThreadsQuery } from '@leadflow/messaging-contracts';
import { SendEmailCommand, SentEmailView } from '@leadflow/messaging-core';
import { SendEmailDto } from './dto/send-email.dto';

/**
 * `/v1/emails` (public-api-v1 › Endpoints › Emails), plan module `emails`. `POST /v1/emails/send`
 * is in the platform's IDEMPOTENCY_KEY_IGNORED: a valid Idempotency-Key is ignored (the spec: "not
 * supported here"), so a repeated request queues another email; a malformed one answers 400 as everywhere.
 */
@Controller('v1/emails')
@RequireFeature('emails')
export class EmailsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** 201 `{ data: { id, status: 'queued', … } }`; rules: see SendEmailHandler. */
  @Post('send')
  @RequireScope('email:send')
  async send(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: SendEmailDto): Promise<{ data: SentEmailView }> {
    const sent = await this.commands.execute(
      new SendEmailCommand(
        key.accountId,
        { to: body.to, subject: body.subject, html: body.body, test: body.test === true },
        actor,
      ),
    );
    return { data: sent };
  }

  /** Email threads, `last_message_at DESC, id DESC`; `cursor`, `limit` (400 `invalid_request` otherwise). */
  @Get('conversations')
  @RequireScope('email:read')
  conversations(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<EmailThreadView>> {
    return this.queries.execute(new ListEmailThreadsQuery(key.accountId, readPageRequest(query)));
  }
}
