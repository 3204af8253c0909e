/** The tenant: every command, query and port method takes it first. A UUID string. */
export type AccountId = string & { readonly __brand: 'AccountId' };

/** Brands a trusted UUID string (resolved by authentication or the operator path) as an AccountId. */
export function asAccountId(value: string): AccountId {
  return value as AccountId;
}
