import { AppConfig } from '@leadflow/shared-platform';
import { isPublicAddress, TargetGuard, TargetRefusedError } from './target-guard';

describe('SSRF guard (TargetGuard)', () => {
  it.each(['8.8.8.8', '93.184.215.14', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('%s is public', (address) => expect(isPublicAddress(address)).toBe(true));

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not an address',
  ])('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['::7f00:1', '::127.0.0.1', '::a00:1', '::808:808', '0:0:0:0:0:0:7f00:1'])(
    'the IPv4-compatible IPv6 form %s is refused (issue 12, item 10: loopback hidden in ::/96)',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );

  it('refuses at connect time too: the socket lookup it gives undici fails for a host resolving to loopback', async () => {
    const guard = new TargetGuard(new AppConfig({ NODE_ENV: 'test' }));
    const error = await new Promise<Error | null>((resolve) => guard.lookupFunction()('localhost', {}, (failure) => resolve(failure)));
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect((error as TargetRefusedError).reason).toBe('non_public_target');
  });

  it('with WEBHOOK_ALLOW_PRIVATE_TARGETS=true the lookup answers the checked address', async () => {
    const guard = new TargetGuard(new AppConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }));
    const address = await new Promise<unknown>((resolve, reject) =>
      guard.lookupFunction()('127.0.0.1', {}, (failure, resolved) => (failure ? reject(failure) : resolve(resolved))),
    );
    expect(address).toBe('127.0.0.1');
  });
});
