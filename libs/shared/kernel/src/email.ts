/** The address shape the spec checks (`^[^\s@]+@[^\s@]+\.[^\s@]+$`), at most 320 characters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Lowercases and trims an address; returns null when it does not match {@link EMAIL_PATTERN}. */
export function normalizeEmail(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  return value.length <= 320 && EMAIL_PATTERN.test(value) ? value : null;
}
