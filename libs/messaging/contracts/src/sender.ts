/** One sender of a blueprint (operator-api › `senders[]`): the address outgoing emails come from. */
export interface SenderSpec {
  email: string;
  name: string;
  isDefault?: boolean | null;
}

/** Ids of the senders provisioned, keyed by their (lowercased) email. */
export type ProvisionedSenders = Record<string, string>;

/** A sender as other contexts read it. */
export interface SenderView {
  id: string;
  /** Lowercase. */
  email: string;
  name: string;
  isDefault: boolean;
}
