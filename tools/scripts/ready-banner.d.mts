/** Types of ready-banner.mjs (the closing block of `npm start`). */
export interface ReadyBannerInput {
  baseUrl: string;
  prepared: {
    seeding: 'provisioned' | 'accounts_exist' | 'disabled';
    demo: { name: string; account_id: string; api_keys: Record<string, string> } | null;
  } | null;
  apiProcesses: number;
  notReady?: string[];
  logLevel: string;
}

export declare function readyBanner(input: ReadyBannerInput): string[];
