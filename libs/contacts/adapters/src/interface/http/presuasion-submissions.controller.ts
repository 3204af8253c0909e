import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import { GetPresuasionSubmissionQuery, ListPresuasionSubmissionsQuery, RecordPresuasionSubmissionCommand, TOOL_SLUG_PATTERN } from '@leadflow/contacts-core';
import { Actor, FieldViolation, isUuid, Page, parseIsoInstant, ValidationFailedError } from '@leadflow/shared-kernel';
import { CurrentActor, CurrentKey, IpLimit, readPageRequest, RequireScope, stringParam } from '@leadflow/shared-platform';
import { PresuasionSubmissionDto } from './dto/presuasion-submission.dto';
import { LEAD_CAPTURE_IP_LIMIT } from './leads.controller';

/**
 * `/v1/presuasion/submissions`: form submissions of presuasion tools (public-api-v1 › Presuasion
 * submissions; the operations are designed here, see README › Decisions and the OpenAPI description).
 * A non-UUID, missing or other account's `{id}` answers 404 `not_found` alike.
 */
@Controller('v1/presuasion/submissions')
export class PresuasionSubmissionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * 201 `{ data: submission }`. Shares lead capture's per-IP limit (the same 100 requests per minute per
   * IP address, counted together with `POST /v1/leads/capture`: 429 `rate_limited_ip`, simplified body,
   * `X-RateLimit-Scope: ip`, before the key quota). Idempotency-Key honoured (the stored 201 is
   * replayed). Rejections: see `RecordPresuasionSubmissionHandler` and `parsePresuasionSubmission`.
   */
  @Post()
  @RequireScope('leads:capture')
  @IpLimit(LEAD_CAPTURE_IP_LIMIT)
  async create(@CurrentKey() key: ApiKeyPrincipal, @CurrentActor() actor: Actor, @Body() body: PresuasionSubmissionDto): Promise<{ data: PresuasionSubmissionView }> {
    return { data: await this.commands.execute(new RecordPresuasionSubmissionCommand(key.accountId, body.toInput(), actor, key.apiTermsAccepted)) };
  }

  /**
   * Sort `created_at DESC, id DESC`, `cursor`/`limit` (400 `invalid_request`). Filters: `tool` (a tool
   * slug, any casing), `contact_id` (UUID; also the contacts merged into it), `from` / `to` (ISO 8601
   * instants with an offset, inclusive bounds of `submitted_at`, `from` not after `to`): 400
   * `validation_error` with `details` `[{ field, reason }]`, reasons `invalid_format`, `invalid_datetime`,
   * `invalid_value`; a filter given twice: 400 `invalid_request`.
   */
  @Get()
  @RequireScope('contacts:read')
  list(@CurrentKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<Page<PresuasionSubmissionView>> {
    const page = readPageRequest(query);
    const [tool, contactId, fromText, toText] = ['tool', 'contact_id', 'from', 'to'].map((name) => stringParam(query, name));
    const violations: FieldViolation[] = [];
    const toolSlug = tool === null ? null : tool.trim().toLowerCase();
    if (toolSlug !== null && !TOOL_SLUG_PATTERN.test(toolSlug)) violations.push({ field: 'tool', reason: 'invalid_format', message: 'tool must be a tool slug.' });
    if (contactId !== null && !isUuid(contactId)) violations.push({ field: 'contact_id', reason: 'invalid_format', message: 'contact_id must be a UUID.' });
    const instant = (name: 'from' | 'to', text: string | null): Date | null => {
      if (text === null) return null;
      const parsed = parseIsoInstant(text);
      if (!parsed) violations.push({ field: name, reason: 'invalid_datetime', message: `${name} must be an ISO 8601 date and time with an offset, e.g. 2027-03-15T14:00:00Z.` });
      return parsed;
    };
    const from = instant('from', fromText);
    const to = instant('to', toText);
    if (from && to && from.getTime() > to.getTime()) violations.push({ field: 'to', reason: 'invalid_value', message: 'to must not be before from.' });
    if (violations.length > 0) throw new ValidationFailedError(violations);
    return this.queries.execute(
      new ListPresuasionSubmissionsQuery(key.accountId, { toolSlug, contactId: contactId === null ? null : contactId.toLowerCase(), from, to }, page),
    );
  }

  /** 200 `{ data: submission }`; 404 `not_found` (`details.resource` `presuasion_submission`). */
  @Get(':id')
  @RequireScope('contacts:read')
  async get(@CurrentKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<{ data: PresuasionSubmissionView }> {
    return { data: await this.queries.execute(new GetPresuasionSubmissionQuery(key.accountId, id)) };
  }
}
