import { Injectable } from '@nestjs/common';
import { InvalidWebhookTargetError, WebhookTargetCheck } from '@leadflow/webhooks-core';
import { TargetGuard, TargetRefusedError } from './target-guard';

/** {@link WebhookTargetCheck} through the SSRF guard: a refusal becomes 400 `validation_error` on `url` (`non_public_target`, `unresolvable_host`). */
@Injectable()
export class GuardedTargetCheck extends WebhookTargetCheck {
  constructor(private readonly guard: TargetGuard) {
    super();
  }

  async check(url: string): Promise<void> {
    try {
      await this.guard.check(new URL(url).hostname);
    } catch (error) {
      if (error instanceof TargetRefusedError) throw new InvalidWebhookTargetError(error.reason, error.message);
      throw error;
    }
  }
}
