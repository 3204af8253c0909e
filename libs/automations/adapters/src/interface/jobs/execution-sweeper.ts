import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ExecutionEngineSettings, SweepExecutionsCommand } from '@leadflow/automations-core';
import { Poller } from '@leadflow/shared-platform';

/**
 * Crash recovery loop of the worker: every `sweepIntervalMs`, stale executions (expired lease,
 * overdue wait, forgotten pending) are queued again (SweepExecutionsHandler), on the platform's
 * {@link Poller}. Stops first on shutdown (waits for the sweep in progress).
 */
@Injectable()
export class ExecutionSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExecutionSweeper.name);
  private readonly poller: Poller;

  constructor(
    private readonly commands: CommandBus,
    settings: ExecutionEngineSettings,
  ) {
    this.poller = new Poller({
      name: 'Automation sweep',
      intervalMs: settings.sweepIntervalMs,
      pass: () => this.sweep(),
      onError: (error) => this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Automation sweep failed'),
    });
  }

  onApplicationBootstrap(): void {
    this.poller.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.poller.stop();
  }

  private async sweep(): Promise<void> {
    const { requeued } = await this.commands.execute(new SweepExecutionsCommand());
    if (requeued > 0) this.logger.log({ requeued }, 'Stale automation executions queued again');
  }
}
