import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { LeadCaptureResult } from '@leadflow/contacts-contracts';
import { asIdempotentReplay, CaptureLeadCommand } from '@leadflow/contacts-core';
import type { Actor } from '@leadflow/shared-kernel';
import { CleansText, CurrentActor, CurrentKey, Idempotent, IpLimit, RequireScope } from '@leadflow/shared-platform';

/** public-api-v1 › Limits: 100 requests per minute per IP address on lead capture. */
export const LEAD_CAPTURE_IP_LIMIT = { name: 'leads_capture', perMinute: 100, code: 'rate_limited_ip', simplified: true } as const;

/** `/v1/leads` (public-api-v1 › Endpoints › Leads). */
@Controller('v1/leads')
export class LeadsController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * 200 with the capture result at the top level (no `data` envelope). The per-IP limit is checked by
   * the guard before the key's quota (429 `rate_limited_ip`, simplified body, `X-RateLimit-Scope: ip`,
   * not consuming the quota). The body is free-form JSON read by the command (no DTO: unknown members
   * are reported in `ignored_fields`, never refused). An Idempotency-Key replay answers the stored
   * response with `status` `idempotent_replay`. Text PostgreSQL cannot store is cleaned by the command
   * (NUL removed, unpaired surrogates replaced), never refused: a funnel's stray byte must not lose a lead.
   */
  @Post('capture')
  @HttpCode(200)
  @RequireScope('leads:capture')
  @IpLimit(LEAD_CAPTURE_IP_LIMIT)
  @CleansText()
  @Idempotent({ replay: (stored) => asIdempotentReplay(stored as LeadCaptureResult) })
  capture(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: unknown): Promise<LeadCaptureResult> {
    return this.commands.execute(new CaptureLeadCommand(key.accountId, body, actor, key.apiTermsAccepted));
  }
}
