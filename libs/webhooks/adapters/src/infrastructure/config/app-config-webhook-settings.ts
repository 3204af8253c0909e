import { Injectable } from '@nestjs/common';
import { AppConfig } from '@leadflow/shared-platform';
import { WebhookDeliverySettings } from '@leadflow/webhooks-core';

/** {@link WebhookDeliverySettings} from the configuration (`WEBHOOK_RETRY_BASE_MS`, `WEBHOOK_LEASE_MS`, `WEBHOOK_SWEEP_GRACE_MS`). */
@Injectable()
export class AppConfigWebhookSettings extends WebhookDeliverySettings {
  constructor(private readonly config: AppConfig) {
    super();
  }

  get retryBaseMs(): number {
    return this.config.webhookDelivery.retryBaseMs;
  }

  get leaseMs(): number {
    return this.config.webhookDelivery.leaseMs;
  }

  get sweepGraceMs(): number {
    return this.config.webhookDelivery.sweepGraceMs;
  }
}
