import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';

/**
 * Secrets at rest: AES-256-GCM keyed by `SECRET_ENCRYPTION_KEY` (32 bytes; operator-api › Runtime
 * contract). Stored form: `v1.<iv base64url>.<tag base64url>.<ciphertext base64url>` with a random 12-byte
 * IV per text. Used for webhook signing secrets (public-api-v1 › Authentication 7, through the webhooks
 * context's vault) and for the responses the Idempotency-Key store keeps for replay (they may carry a
 * secret: docs/adr/0002-idempotent-creates-with-secrets.md). `decrypt` throws when the key or the text is
 * wrong (the tag does not verify) or the text is not of this form.
 */
@Injectable()
export class SecretCipher {
  constructor(private readonly config: AppConfig) {}

  /** `plain` (UTF-8 text) → the stored form above. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.config.secretEncryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** The stored form → the plain text; throws `Unknown secret format` or the GCM authentication error. */
  decrypt(stored: string): string {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.config.secretEncryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
