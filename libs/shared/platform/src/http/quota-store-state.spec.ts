import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { QuotaStoreState } from './quota-store-state';

describe('QuotaStoreState: a quota store that cannot count is never silent', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs the fallback once per transition (with the limits applied), not per request, and its duration when it ends', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const state = new QuotaStoreState({ apiProcesses: 2 } as AppConfig);
    for (let request = 0; request < 100; request += 1) state.failed(new Error('CROSSSLOT Keys in request don\'t hash to the same slot'), 1_000 + request);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[1])).toMatch(/CROSSSLOT.*1\/2 of each limit/);
    expect(state.degraded).toBe(true);
    expect(state.snapshot(4_000)).toMatchObject({ mode: 'in_process', fallbacks: 1, fallbackSeconds: 3 });
    for (let request = 0; request < 100; request += 1) state.succeeded(4_000);
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]?.[1])).toContain('after 3.0 s in process');
    expect(state.snapshot(10_000)).toMatchObject({ mode: 'redis', reason: null, fallbacks: 1, fallbackSeconds: 3 });
  });
});
