import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { LightMyRequestResponse } from 'fastify';
import { FixedClock } from '@leadflow/shared-kernel';
import { createTestServices, TEST_ADMIN_TOKEN, TestServices } from '@leadflow/shared-testing';
import { createApiApp, CreateApiAppOptions } from '../../src/bootstrap';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  path: string;
  /** Bearer token; omit for none. */
  token?: string;
  /** Serialised as JSON with `Content-Type: application/json` unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Client address seen by the server (default 127.0.0.1): per-IP limits count by it. */
  remoteAddress?: string;
}

export interface TestResponse {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test responses are asserted field by field
  raw: LightMyRequestResponse;
}

/**
 * The api app booted on a database of its own (cloned from the migrated template) and a Redis prefix
 * of its own, driven over Fastify's injection (the full HTTP pipeline: hooks, parsers, guards, filters).
 */
export class TestApi {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly services: TestServices,
    readonly clock: FixedClock,
  ) {}

  /** `options.extraModules`: test-only modules (e.g. a controller exercising the platform) booted beside the app's. */
  static async start(env: Record<string, string | undefined> = {}, clock = new FixedClock(), options: CreateApiAppOptions = {}): Promise<TestApi> {
    const services = await createTestServices();
    const app = await createApiApp(services.config(env), clock, options);
    return new TestApi(app, services, clock);
  }

  async request(options: RequestOptions): Promise<TestResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let payload: string | undefined = options.rawBody;
    if (payload === undefined && options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const raw = await this.app.inject({
      method: options.method ?? 'GET',
      url: options.path,
      headers,
      payload,
      query: options.query,
      remoteAddress: options.remoteAddress,
    });
    let body: unknown = undefined;
    if (raw.body.length > 0) {
      try {
        body = JSON.parse(raw.body);
      } catch {
        body = raw.body;
      }
    }
    return { status: raw.statusCode, headers: raw.headers, body, raw };
  }

  /** Operator API call with the test admin token. */
  admin(method: RequestOptions['method'], path: string, body?: unknown): Promise<TestResponse> {
    return this.request({ method, path: `/admin/v1${path}`, token: TEST_ADMIN_TOKEN, body });
  }

  /** Provisions an account from a blueprint (name defaults) and returns the 201 body. Fails the test otherwise. */
  async provision(blueprint: Record<string, unknown> = {}): Promise<ProvisionedAccount> {
    const response = await this.admin('POST', '/accounts', {
      name: 'Rénovations Tremblay',
      api_terms_accepted: true,
      api_keys: [{ name: 'full', preset: 'full_integration' }],
      ...blueprint,
    });
    if (response.status !== 201) throw new Error(`provisioning failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as ProvisionedAccount;
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.services.dispose();
  }
}

export interface ProvisionedAccount {
  account_id: string;
  api_keys: Record<string, { id: string; key: string; prefix: string }>;
  systems: Record<string, string>;
  team_members: Record<string, string>;
  pipelines?: Record<string, { id: string; stages: Record<string, string> }>;
  custom_fields?: Record<string, string>;
  [member: string]: unknown;
}
