import ipaddr from 'ipaddr.js';

/**
 * Which outbound addresses tools may reach. Loopback, private, link-local (cloud metadata),
 * unique-local, carrier-grade NAT, multicast and reserved addresses are refused unless the operator
 * allows private networks or lists the host, address or range.
 */
export interface AddressPolicy {
  allowPrivateNetwork: boolean;
  /** Host names (exact, lowercase), addresses or CIDR ranges allowed although private. */
  allowlist: readonly string[];
}

export const DEFAULT_POLICY: AddressPolicy = { allowPrivateNetwork: false, allowlist: [] };

/** Reads WEFT_ALLOW_PRIVATE_NETWORK (true/1) and WEFT_OUTBOUND_ALLOWLIST (comma separated). */
export function policyFromEnv(env: NodeJS.ProcessEnv = process.env): AddressPolicy {
  const allow = (env.WEFT_ALLOW_PRIVATE_NETWORK ?? '').trim().toLowerCase();
  return {
    allowPrivateNetwork: allow === 'true' || allow === '1' || allow === 'yes',
    allowlist: (env.WEFT_OUTBOUND_ALLOWLIST ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
  };
}

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const ip = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) return (ip as ipaddr.IPv6).toIPv4Address();
    return ip;
  } catch {
    return null;
  }
}

function inAllowlist(policy: AddressPolicy, host: string, ip: ipaddr.IPv4 | ipaddr.IPv6 | null): boolean {
  for (const entry of policy.allowlist) {
    if (entry === host) return true;
    if (!ip) continue;
    if (entry.includes('/')) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        if (ip instanceof ipaddr.IPv4 && range instanceof ipaddr.IPv4 && ip.match(range, bits)) return true;
        if (ip instanceof ipaddr.IPv6 && range instanceof ipaddr.IPv6 && ip.match(range, bits)) return true;
      } catch {
        // not a range: compared as a host above
      }
    } else {
      const listed = parse(entry);
      if (listed && listed.kind() === ip.kind() && listed.toNormalizedString() === ip.toNormalizedString()) return true;
    }
  }
  return false;
}

/** True when an address is a public unicast one. */
export function isPublicAddress(address: string): boolean {
  const ip = parse(address);
  return ip !== null && ip.range() === 'unicast';
}

/** Whether `address` (resolved from `host`) may be reached under the policy. */
export function addressAllowed(policy: AddressPolicy, host: string, address: string): boolean {
  if (policy.allowPrivateNetwork) return true;
  if (isPublicAddress(address)) return true;
  return inAllowlist(policy, host.toLowerCase(), parse(address));
}
