import { Body, Controller, Get, HttpCode, Module, Param, Post, Query, Res } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { AccountId, DomainError } from '@leadflow/shared-kernel';
import {
  ActivityLogRecord,
  applyKeyset,
  CurrentAccount,
  Idempotent,
  readPageRequest,
  RequireFeature,
  RequireScope,
  toPage,
} from '@leadflow/shared-platform';

/**
 * A test-only module booted beside the app's (`TestApi.start(env, clock, { extraModules: [PlatformProbeModule] })`)
 * so the platform's request path (guard, pipe, idempotency, pagination, error envelope) can be
 * exercised before the contexts' routes exist. Never imported by the app itself.
 */

class AddressDto {
  @IsString()
  city!: string;
}

export class ProbeEchoDto {
  @IsString()
  @MaxLength(50)
  name!: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  count?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;
}

export class ProbeOutcomeDto {
  @IsIn(['ok', 'unprocessable', 'crash'])
  outcome!: 'ok' | 'unprocessable' | 'crash';
}

export class ProbeUpsertDto {
  @IsString()
  name!: string;

  @IsOptional()
  existing?: boolean;
}

/** A gate the `slow` route waits on, opened by the test. */
export class Gate {
  private static release: (() => void) | null = null;
  private static pending: Promise<void> = Promise.resolve();
  static entered = 0;

  static close(): void {
    Gate.pending = new Promise<void>((resolve) => (Gate.release = resolve));
    Gate.entered = 0;
  }

  static open(): void {
    Gate.release?.();
    Gate.release = null;
  }

  static wait(): Promise<void> {
    Gate.entered += 1;
    return Gate.pending;
  }
}

/** How many times each handler really ran (a replay does not run it). */
export const executions = { echo: 0, upsert: 0, ordered: 0, slow: 0, outcome: 0 };

@Controller('v1/test-probe')
export class PlatformProbeController {
  constructor(@InjectRepository(ActivityLogRecord) private readonly activity: Repository<ActivityLogRecord>) {}

  @Post('echo')
  @RequireScope('contacts:write')
  @Idempotent()
  echo(@Body() body: ProbeEchoDto): { data: Record<string, unknown> } {
    executions.echo += 1;
    return { data: { id: randomUUID(), name: body.name, count: body.count ?? null, execution: executions.echo } };
  }

  @Post('echo-200')
  @HttpCode(200)
  @RequireScope('contacts:write')
  @Idempotent()
  echo200(@Body() body: ProbeEchoDto): { data: Record<string, unknown> } {
    executions.echo += 1;
    return { data: { id: randomUUID(), name: body.name } };
  }

  /** 201 for a new name, 200 when `existing`: the status is set by the handler itself. */
  @Post('upsert')
  @RequireScope('contacts:write')
  @Idempotent()
  upsert(@Body() body: ProbeUpsertDto, @Res({ passthrough: true }) reply: FastifyReply): { data: Record<string, unknown>; created: boolean } {
    executions.upsert += 1;
    void reply.status(body.existing ? 200 : 201);
    return { data: { id: randomUUID(), name: body.name }, created: !body.existing };
  }

  /** Members deliberately out of alphabetical and length order. */
  @Post('ordered')
  @RequireScope('contacts:write')
  @Idempotent()
  ordered(): Record<string, unknown> {
    executions.ordered += 1;
    return { zeta_long_member: 1, a: { yy: true, b: [3, 2, 1] }, id: randomUUID(), middle: 'm' };
  }

  @Post('slow')
  @RequireScope('contacts:write')
  @Idempotent()
  async slow(@Body() body: ProbeEchoDto): Promise<{ data: Record<string, unknown> }> {
    executions.slow += 1;
    await Gate.wait();
    return { data: { id: randomUUID(), name: body.name } };
  }

  @Post('outcome')
  @RequireScope('contacts:write')
  @Idempotent()
  outcome(@Body() body: ProbeOutcomeDto): { data: Record<string, unknown> } {
    executions.outcome += 1;
    if (body.outcome === 'unprocessable') {
      throw new DomainError('business_rule_violation', 'Refused by the probe.', { reason: 'probe_refusal' });
    }
    if (body.outcome === 'crash') throw new Error('probe crash');
    return { data: { id: randomUUID(), execution: executions.outcome } };
  }

  /** Throws `DomainError(code)` with the options the query names. */
  @Get('fail')
  @RequireScope(null)
  fail(@Query() query: Record<string, string>): never {
    throw new DomainError(query.code, 'Probe failure.', query.details === 'array' ? [{ field: 'name', reason: 'required' }] : { probe: true }, {
      simplified: query.simplified === 'true',
      extra: query.extra === 'true' ? { data: { id: 'existing' } } : undefined,
      headers: query.retry_after ? { 'Retry-After': query.retry_after } : undefined,
    });
  }

  @Get('boom')
  @RequireScope(null)
  boom(): never {
    throw new Error('secret internal detail');
  }

  @Get('db-down')
  @RequireScope(null)
  dbDown(): never {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  }

  @Get('no-scope-declared')
  noScope(): { data: null } {
    return { data: null };
  }

  @Get('quotes-module')
  @RequireScope(null)
  @RequireFeature('quotes')
  quotesModule(): { data: { ok: true } } {
    return { data: { ok: true } };
  }

  /** A resource route: any id is unknown (a malformed one too, like a missing resource). */
  @Get('things/:id')
  @RequireScope(null)
  thing(@Param('id') id: string): never {
    throw new DomainError('resource_not_found', 'No such thing.', { resource: 'thing', id_length: id.length });
  }

  /** Keyset page over this account's `probe_item` activity entries, newest first. */
  @Get('items')
  @RequireScope(null)
  async items(@CurrentAccount() accountId: AccountId, @Query() query: Record<string, unknown>) {
    const page = readPageRequest(query);
    const base = this.activity
      .createQueryBuilder('entry')
      .where('entry.account_id = :accountId', { accountId })
      .andWhere('entry.type = :type', { type: 'probe_item' });
    const total = await base.clone().getCount();
    const rows = await applyKeyset(base, 'entry', page).getMany();
    return toPage(rows, page, total, (row) => ({ id: row.id, created_at: row.createdAt.toISOString() }));
  }
}

@Module({ controllers: [PlatformProbeController] })
export class PlatformProbeModule {}
