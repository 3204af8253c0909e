import { Injectable } from '@nestjs/common';
import { SecretCipher } from '@leadflow/shared-platform';
import { WebhookSecretVault } from '@leadflow/webhooks-core';

/**
 * {@link WebhookSecretVault}: webhook secrets at rest (public-api-v1 › Authentication 7), kept by the
 * platform's {@link SecretCipher} (AES-256-GCM keyed by `SECRET_ENCRYPTION_KEY`, stored form
 * `v1.<iv>.<tag>.<ciphertext>`, base64url). Decryption throws when the key or the text is wrong.
 */
@Injectable()
export class WebhookSecretCipher extends WebhookSecretVault {
  constructor(private readonly cipher: SecretCipher) {
    super();
  }

  encrypt(plain: string): string {
    return this.cipher.encrypt(plain);
  }

  decrypt(stored: string): string {
    return this.cipher.decrypt(stored);
  }
}
