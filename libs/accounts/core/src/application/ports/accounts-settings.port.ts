/** Settings the accounts handlers need from configuration. */
export abstract class AccountsSettings {
  /** `rate_limits.per_hour` of a key created without one (requests per hour). */
  abstract readonly defaultKeyPerHour: number;
}
