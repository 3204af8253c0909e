import 'reflect-metadata';
import { Controller, Delete, Get, Module, Patch, Post } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { IdempotencyInterceptor, interceptPostRoutes } from './idempotency.interceptor';

@Controller('things')
class ThingsController {
  @Get() list(): string[] {
    return [];
  }
  @Post() create(): string {
    return 'created';
  }
  @Patch(':id') update(): string {
    return 'updated';
  }
  @Delete(':id') remove(): void {}
  @Post(':id/archive') archive(): string {
    return 'archived';
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

const interceptorsOf = (name: keyof ThingsController): unknown[] =>
  (Reflect.getMetadata(INTERCEPTORS_METADATA, ThingsController.prototype[name]) as unknown[] | undefined) ?? [];

describe('interceptPostRoutes (issue 11: the Idempotency-Key interceptor on POST handlers only, no RxJS pipeline elsewhere)', () => {
  const apps: NestFastifyApplication[] = [];
  const app = async () => {
    const created = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), { logger: false });
    apps.push(created);
    return created;
  };
  const interceptor = () => Object.create(IdempotencyInterceptor.prototype) as IdempotencyInterceptor;
  afterAll(async () => {
    for (const created of apps) await created.close();
  });

  it('every POST handler gets the interceptor; GET, PATCH and DELETE handlers get none', async () => {
    const given = interceptor();
    interceptPostRoutes(await app(), given);
    expect(interceptorsOf('create')).toEqual([given]);
    expect(interceptorsOf('archive')).toEqual([given]);
    expect(interceptorsOf('list')).toEqual([]);
    expect(interceptorsOf('update')).toEqual([]);
    expect(interceptorsOf('remove')).toEqual([]);
  });

  it("a later application's interceptor replaces the earlier one (never two on one handler)", async () => {
    const first = interceptor();
    const second = interceptor();
    interceptPostRoutes(await app(), first);
    interceptPostRoutes(await app(), second);
    expect(interceptorsOf('create')).toEqual([second]);
  });
});
