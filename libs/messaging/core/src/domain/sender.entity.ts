import { FieldViolation, newId, normalizeEmail } from '@leadflow/shared-kernel';
import type { SenderSpec } from '@leadflow/messaging-contracts';
import { InvalidSendersError } from './messaging.errors';

export interface Sender {
  id: string;
  /** Lowercase. */
  email: string;
  name: string;
  isDefault: boolean;
  createdAt: Date;
}

/** What provisioning must know of the account's senders already stored. */
export interface ExistingSender {
  email: string;
  isDefault: boolean;
}

const NAME_MAX_LENGTH = 200;

/**
 * Builds new senders from blueprint specs, checking the rules of ProvisionSendersCommand against the
 * specs and the senders already stored. Throws {@link InvalidSendersError} listing every breach.
 */
export function provisionSenders(specs: readonly SenderSpec[], existing: readonly ExistingSender[], now: Date): Sender[] {
  const violations: FieldViolation[] = [];
  const taken = new Set(existing.map((sender) => sender.email));
  const existingDefault = existing.some((sender) => sender.isDefault);
  const flaggedDefaults = specs.flatMap((spec, index) => (spec.isDefault === true ? [index] : []));
  for (const index of existingDefault ? flaggedDefaults : flaggedDefaults.slice(1)) {
    violations.push({
      field: `senders[${index}].is_default`,
      reason: 'invalid_value',
      message: existingDefault ? 'The account already has a default sender.' : 'Only one sender can be the default one.',
    });
  }
  const defaultIndex = existingDefault ? -1 : (flaggedDefaults[0] ?? 0);

  const senders = specs.map((spec, index): Sender => {
    const at = `senders[${index}]`;
    const email = typeof spec.email === 'string' ? normalizeEmail(spec.email) : null;
    if (!email) {
      violations.push({ field: `${at}.email`, reason: 'invalid_format', message: 'A sender needs a valid email address.' });
    } else if (taken.has(email)) {
      violations.push({ field: `${at}.email`, reason: 'duplicate', message: `Sender ${email} is already configured.` });
    } else {
      taken.add(email);
    }
    if (typeof spec.name !== 'string' || spec.name.trim().length === 0) {
      violations.push({ field: `${at}.name`, reason: 'required', message: 'A sender needs a name.' });
    } else if (spec.name.length > NAME_MAX_LENGTH) {
      violations.push({ field: `${at}.name`, reason: 'too_long', message: `At most ${NAME_MAX_LENGTH} characters.` });
    }
    return { id: newId(), email: email ?? '', name: spec.name, isDefault: index === defaultIndex, createdAt: now };
  });

  if (violations.length > 0) throw new InvalidSendersError(violations);
  return senders;
}
