/**
 * Campaign tags (public-api-v1 › Tag): `system_key` `campaign:<slug>`, name `Campagne : <name>`.
 * They are managed by the service; names beginning with `Campagne :` (any casing and spacing) are
 * reserved and refused on `POST /v1/tags`.
 */
export const CAMPAIGN_SYSTEM_KEY_PREFIX = 'campaign:';
export const CAMPAIGN_TAG_NAME_PREFIX = 'Campagne : ';

/** `campaign:<slug>` */
export function campaignSystemKey(slug: string): string {
  return `${CAMPAIGN_SYSTEM_KEY_PREFIX}${slug}`;
}

/** `Campagne : <name>` */
export function campaignTagName(name: string): string {
  return `${CAMPAIGN_TAG_NAME_PREFIX}${name.trim()}`;
}

export function isCampaignSystemKey(systemKey: string | null | undefined): boolean {
  return typeof systemKey === 'string' && systemKey.startsWith(CAMPAIGN_SYSTEM_KEY_PREFIX);
}
