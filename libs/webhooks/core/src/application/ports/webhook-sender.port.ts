import type { ReceiverAnswer } from '../../domain/delivery-attempt';

/** The outbound HTTP client: one POST with a 10 s timeout, redirects not followed, SSRF guard at connect time. Never throws. */
export abstract class WebhookSender {
  abstract post(url: string, body: string, headers: Record<string, string>): Promise<ReceiverAnswer>;
}

/** The SSRF check of a target URL at subscription time: throws `InvalidWebhookTargetError` (400 `validation_error`). */
export abstract class WebhookTargetCheck {
  abstract check(url: string): Promise<void>;
}

/** Secrets at rest: `encrypt` gives the stored form, `decrypt` the secret back (throws on a wrong key or text). */
export abstract class WebhookSecretVault {
  abstract encrypt(secret: string): string;
  abstract decrypt(stored: string): string;
}

/** `data.system` of a payload, resolved at delivery: the System the contact belongs to now, or null. */
export abstract class ContactSystemLookup {
  abstract systemOf(accountId: string, contactId: string): Promise<{ id: string; name: string } | null>;

  /** The payload's `livemode` (test mode, issue 15 item 4): false for a sandbox account. Default true. */
  livemodeOf(_accountId: string): Promise<boolean> {
    return Promise.resolve(true);
  }
}

/** Delivery settings (milliseconds): retry schedule base, attempt lease, sweeper grace. */
export abstract class WebhookDeliverySettings {
  abstract readonly retryBaseMs: number;
  abstract readonly leaseMs: number;
  abstract readonly sweepGraceMs: number;
}
