import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ExecutionEngineSettings, SweepExecutionsCommand } from '@leadflow/automations-core';

/**
 * Crash recovery loop of the worker: every `sweepIntervalMs`, stale executions (expired lease,
 * overdue wait, forgotten pending) are queued again (SweepExecutionsHandler). Stops first on shutdown.
 */
@Injectable()
export class ExecutionSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExecutionSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private running = false;

  constructor(
    private readonly commands: CommandBus,
    private readonly settings: ExecutionEngineSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.sweep().finally(() => {
        this.inFlight = null;
        this.schedule();
      });
    }, this.settings.sweepIntervalMs);
  }

  private async sweep(): Promise<void> {
    try {
      const { requeued } = await this.commands.execute(new SweepExecutionsCommand());
      if (requeued > 0) this.logger.log({ requeued }, 'Stale automation executions queued again');
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Automation sweep failed');
    }
  }
}
