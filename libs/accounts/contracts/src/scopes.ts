/** Every scope of public-api-v1 › Authentication (3). */
export const SCOPES = [
  'contacts:read',
  'contacts:write',
  'contacts:delete',
  'pipeline:read',
  'pipeline:write',
  'quotes:read',
  'quotes:write',
  'automations:read',
  'automations:trigger',
  'conversations:read',
  'bookings:read',
  'bookings:write',
  'tags:read',
  'tags:write',
  'email:read',
  'email:send',
  'webhooks:manage',
  'leads:capture',
  'events:ingest',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Key presets (operator-api › blueprint): `full_integration` is the only one with `contacts:delete`. */
export const PRESETS = {
  lead_capture: ['leads:capture', 'events:ingest'] as Scope[],
  full_integration: [...SCOPES] as Scope[],
} as const;

export type PresetName = keyof typeof PRESETS;

/** Plan modules gated by 403 `feature_not_available` (public-api-v1 › Authentication (4)). */
export const FEATURES = [
  'public_api',
  'quotes',
  'bookings',
  'automations',
  'emails',
  'webhooks',
  'events_module',
  'conversations',
] as const;

export type Feature = (typeof FEATURES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

export function isFeature(value: unknown): value is Feature {
  return typeof value === 'string' && (FEATURES as readonly string[]).includes(value);
}

/** The preset a scope set corresponds to, or `custom` (reported by `GET /v1/me`). */
export function inferPreset(scopes: readonly string[]): PresetName | 'custom' {
  const set = new Set(scopes);
  for (const [name, presetScopes] of Object.entries(PRESETS) as [PresetName, Scope[]][]) {
    if (presetScopes.length === set.size && presetScopes.every((scope) => set.has(scope))) return name;
  }
  return 'custom';
}
