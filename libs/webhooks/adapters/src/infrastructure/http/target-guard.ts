import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { AppConfig } from '@leadflow/shared-platform';

/** Why a target is refused (the `reason` of the 400 `validation_error` on `url`). */
export type TargetRefusal = 'non_public_target' | 'unresolvable_host';

export class TargetRefusedError extends Error {
  constructor(
    readonly reason: TargetRefusal,
    message: string,
  ) {
    super(message);
  }
}

/**
 * True when `address` (IPv4 or IPv6 text) is a public unicast address. Refused: every ipaddr.js range
 * other than `unicast` (loopback, private, linkLocal, carrierGradeNat, multicast, unspecified,
 * broadcast, reserved, uniqueLocal, ipv4Mapped, rfc6145, rfc6052, 6to4, teredo, benchmarking,
 * amt, as112, orchid2, droneRemoteIdProtocolEntityTags, …). An IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries. An IPv4-compatible IPv6 address
 * (`::/96`, deprecated by RFC 4291: `::7f00:1`, `::127.0.0.1`), which some stacks route to the IPv4
 * address in its low 32 bits and which ipaddr.js calls `unicast`, is refused outright (issue 12, item 10).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 becomes its IPv4
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return parsed.range() === 'unicast';
}

/** `[::1]` → `::1`: URL hostnames of IPv6 literals keep their brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * SSRF guard of webhook targets (issue 6 › Subscriptions; operator-api › `WEBHOOK_ALLOW_PRIVATE_TARGETS`).
 * A host is acceptable when EVERY address it resolves to (`dns.lookup` with `all: true`, IPv4 and IPv6)
 * is public; an IP literal is judged directly. Applied when a subscription is created and again at every
 * delivery, where {@link TargetGuard.lookupFunction} is also the socket's `lookup`, so the connection
 * goes to the very address that was checked (no DNS rebinding between check and connect).
 * `WEBHOOK_ALLOW_PRIVATE_TARGETS=true` lets non-public addresses through (development and tests).
 */
@Injectable()
export class TargetGuard {
  constructor(private readonly config: AppConfig) {}

  get allowPrivate(): boolean {
    return this.config.webhookAllowPrivateTargets;
  }

  /** Resolves `hostname` and returns its checked addresses; throws {@link TargetRefusedError}. */
  async check(hostname: string): Promise<{ address: string; family: number }[]> {
    const host = bareHost(hostname);
    const literal = isIP(host);
    let addresses: { address: string; family: number }[];
    if (literal) addresses = [{ address: host, family: literal }];
    else {
      try {
        addresses = await lookup(host, { all: true, verbatim: true });
      } catch {
        throw new TargetRefusedError('unresolvable_host', `The host ${host} does not resolve.`);
      }
      if (addresses.length === 0) throw new TargetRefusedError('unresolvable_host', `The host ${host} does not resolve.`);
    }
    if (!this.allowPrivate) {
      const refused = addresses.find((entry) => !isPublicAddress(entry.address));
      if (refused) {
        throw new TargetRefusedError('non_public_target', `The host ${host} resolves to a non-public address (${refused.address}); webhooks go to public addresses only.`);
      }
    }
    return addresses;
  }

  /**
   * A `net.connect` / `tls.connect` `lookup` option that resolves through {@link check}: the socket
   * connects to the first checked address, or fails with the refusal.
   */
  lookupFunction(): (hostname: string, options: unknown, callback: (error: Error | null, address?: string | { address: string; family: number }[], family?: number) => void) => void {
    return (hostname, options, callback) => {
      this.check(hostname).then(
        (addresses) => {
          if ((options as { all?: boolean } | undefined)?.all) callback(null, addresses);
          else callback(null, addresses[0].address, addresses[0].family);
        },
        (error: Error) => callback(error),
      );
    };
  }
}
