import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DrainWorkersOnShutdown } from './drain-workers-on-shutdown';

/** Process lifecycle of the worker app (imported by `WorkerModule`). */
@Module({ imports: [DiscoveryModule], providers: [DrainWorkersOnShutdown] })
export class WorkerLifecycleModule {}
