import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@leadflow/shared-platform';
import { WebhookSecretVault } from '@leadflow/webhooks-core';

/**
 * {@link WebhookSecretVault}: webhook secrets at rest (public-api-v1 › Authentication 7): AES-256-GCM keyed by
 * `SECRET_ENCRYPTION_KEY` (32 bytes). Stored form: `v1.<iv base64url>.<tag base64url>.<ciphertext base64url>`
 * with a random 12-byte IV per secret. Decryption throws when the key or the text is wrong.
 */
@Injectable()
export class SecretCipher extends WebhookSecretVault {
  constructor(private readonly config: AppConfig) {
    super();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.config.secretEncryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  decrypt(stored: string): string {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.config.secretEncryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
