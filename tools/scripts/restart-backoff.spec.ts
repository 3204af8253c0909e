import { BACKOFF_RESET_AFTER_MS, createRestartBackoff } from './restart-backoff.mjs';

/** `npm start` self-recovery (tools/scripts/start.mjs): the restart delays of one supervised process slot. */
describe('npm start restart backoff', () => {
  const quickDeath = 500; // ms of uptime

  it('doubles the delay for each death in a row from 1 s, capped at 30 s', () => {
    const backoff = createRestartBackoff();
    const delays = Array.from({ length: 8 }, () => backoff.next(quickDeath).delayMs);
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('counts the deaths in a row', () => {
    const backoff = createRestartBackoff();
    expect([backoff.next(quickDeath).inARow, backoff.next(quickDeath).inARow]).toEqual([1, 2]);
  });

  it('goes back to 1 s once the process had stayed up 60 s, not before', () => {
    const backoff = createRestartBackoff();
    for (let i = 0; i < 4; i++) backoff.next(quickDeath);
    expect(backoff.next(BACKOFF_RESET_AFTER_MS - 1)).toEqual({ delayMs: 16_000, inARow: 5 });
    expect(backoff.next(BACKOFF_RESET_AFTER_MS)).toEqual({ delayMs: 1_000, inARow: 1 });
    expect(backoff.next(quickDeath)).toEqual({ delayMs: 2_000, inARow: 2 });
  });
});
