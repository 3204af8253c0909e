import type { ApiKeySpec } from '@leadflow/accounts-contracts';
import type { ApiKeySpecDto } from './account-blueprint.dto';

export function toApiKeySpec(dto: ApiKeySpecDto): ApiKeySpec {
  return {
    name: dto.name,
    preset: dto.preset,
    scopes: dto.scopes,
    perHour: dto.per_hour ?? null,
    eventsPerMinute: dto.events_per_minute ?? null,
    expiresAt: dto.expires_at ? new Date(dto.expires_at) : null,
    grantedBy: dto.granted_by ?? null,
  };
}
