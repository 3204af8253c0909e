import { z } from 'zod';

/**
 * Validation of the environment variables of the README's "Environment variables" table (operator-api.md ›
 * Runtime contract), with zod. Each variable has its own schema over the raw string (`undefined` when unset);
 * a failure becomes one line `NAME=<value as JSON>: expected <what>` in a {@link ConfigError}.
 */

/** Thrown by `new AppConfig()` when some variables are invalid: one line per bad variable, `NAME=value: expected …`. */
export class ConfigError extends Error {
  /** Process exit code of an app or script stopped by a bad configuration (sysexits EX_CONFIG); `npm start` does not restart it. */
  static readonly EXIT_CODE = 78;

  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

type Raw = string | undefined;

/** A variable's schema: the raw value (undefined when unset) → its parsed value; the message says what is expected. */
type VariableSchema<T> = z.ZodType<T, Raw>;

const unset = (raw: Raw): boolean => raw === undefined;

/** Integer in [min, max] (decimal digits only; no empty string, no `1e3`, no `12abc`). */
export function integer(defaultValue: number, min: number, max = Number.MAX_SAFE_INTEGER): VariableSchema<number> {
  const expected = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer between ${min} and ${max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (unset(raw)) return defaultValue;
      const value = /^\s*-?\d+\s*$/.test(raw!) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < min || value > max) {
        ctx.addIssue({ code: 'custom', message: expected });
        return z.NEVER;
      }
      return value;
    });
}

/** A TCP port 0..65535 (0: any free port); empty or unset means none (null). */
export function optionalPort(): VariableSchema<number | null> {
  const inner = integer(0, 0, 65_535);
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return null;
      const parsed = inner.safeParse(raw);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: 'an integer between 0 and 65535, or empty' });
        return z.NEVER;
      }
      return parsed.data;
    });
}

/** `true` or `false`. */
export function boolean(defaultValue: boolean): VariableSchema<boolean> {
  return z
    .enum(['true', 'false'], { error: () => 'true or false' })
    .optional()
    .transform((raw) => (raw === undefined ? defaultValue : raw === 'true'));
}

/** One of `values`. */
export function oneOf<T extends string>(values: readonly [T, ...T[]], defaultValue: T): VariableSchema<T> {
  return z
    .enum(values, { error: () => `one of ${values.join(', ')}` })
    .optional()
    .transform((raw) => raw ?? defaultValue);
}

/** A URL whose scheme is one of `protocols` (e.g. `['postgres:', 'postgresql:']`). */
export function url(protocols: readonly string[], defaultValue: string): VariableSchema<string> {
  const expected = `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (unset(raw)) return defaultValue;
      if (!URL.canParse(raw!) || !protocols.includes(new URL(raw!).protocol)) {
        ctx.addIssue({ code: 'custom', message: expected });
        return z.NEVER;
      }
      return raw!;
    });
}

/** Like {@link url} but the empty string also means unset (null). */
export function optionalUrl(protocols: readonly string[]): VariableSchema<string | null> {
  const inner = url(protocols, '');
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return null;
      const parsed = inner.safeParse(raw);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'a URL' });
        return z.NEVER;
      }
      return parsed.data;
    });
}

/** A non-empty string (no surrounding-space-only value). */
export function text(defaultValue: string): VariableSchema<string> {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (unset(raw)) return defaultValue;
      if (raw!.trim().length === 0) {
        ctx.addIssue({ code: 'custom', message: 'a non-empty string' });
        return z.NEVER;
      }
      return raw!;
    });
}

/** A string where empty means unset (null). */
export function optionalText(): VariableSchema<string | null> {
  return z
    .string()
    .optional()
    .transform((raw) => (raw === undefined || raw.length === 0 ? null : raw));
}

/** How a bad value is shown: bare when plain (`PORT=abc`), JSON-quoted when empty or with spaces/quotes, hidden when secret. */
function shown(raw: Raw, secret: boolean): string {
  if (raw === undefined) return '(unset)';
  if (secret && raw.length > 0) return `(hidden, ${raw.length} characters)`;
  return /^[^\s"']+$/.test(raw) ? raw : JSON.stringify(raw);
}

/**
 * Validates `env[name]` with `schema`; on failure pushes `NAME=<value>: expected <what>` to `problems` and
 * returns `fallback`, so the caller goes on and reports every bad variable at once. `secret` hides the value.
 */
export function read<T>(env: Record<string, Raw>, name: string, schema: VariableSchema<T>, problems: string[], fallback: T, secret = false): T {
  const raw = env[name];
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  problems.push(`${name}=${shown(raw, secret)}: expected ${result.error.issues[0]?.message ?? 'a valid value'}`);
  return fallback;
}
