import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { IPV4_RANGES, IPV6_GLOBAL_UNICAST, IPV6_RANGES, MORE_SPECIFIC, OUTSIDE_GLOBAL_UNICAST, type Range } from './special-purpose.js';

/**
 * Which addresses a webhook may be delivered to (section 6 item 2: "public HTTPS"): the globally
 * reachable ones of IANA's special-purpose registries (special-purpose.ts). A delivery must never
 * reach the sandbox's own machine, its network, or a cloud's metadata service (169.254.169.254)
 * on a user's say-so. Lessons: an IPv4 address can hide inside IPv6 (`::ffff:10.0.0.1`, NAT64,
 * 6to4), so those are judged by the IPv4 address they carry; and only a connection that stays on
 * this machine is loopback: `64:ff9b::127.0.0.1` goes to a NAT64 gateway, whose loopback it is.
 */

export interface AddressVerdict {
  /** Globally reachable: a delivery may go there. */
  public: boolean;
  /** A connection to it stays on this machine (127.0.0.0/8, ::1, and IPv4-mapped forms of 127/8). */
  thisMachine: boolean;
  /** What it is, in words, for a refusal that may name it: "a private address". */
  what: string;
}

type Parsed = ReturnType<typeof ipaddr.parse>;

const MORE_SPECIFIC_PARSED = MORE_SPECIFIC.map(([cidr, range]) => [ipaddr.parseCIDR(cidr), range] as const);
const GLOBAL_UNICAST = ipaddr.parseCIDR(IPV6_GLOBAL_UNICAST);

function rangeOf(address: Parsed): Range {
  for (const [cidr, range] of MORE_SPECIFIC_PARSED) if (address.kind() === cidr[0].kind() && address.match(cidr)) return range;
  if (address.kind() === 'ipv4') return IPV4_RANGES[address.range()] ?? { reach: 'local', what: 'an address of an unknown range' };
  const name = address.range();
  if (name === 'unicast' && !address.match(GLOBAL_UNICAST)) return OUTSIDE_GLOBAL_UNICAST;
  return IPV6_RANGES[name] ?? { reach: 'local', what: 'an address of an unknown range' };
}

/** The IPv4 address an IPv6 address carries: the last 32 bits (mapped, NAT64), or bits 16 to 48 (6to4). */
function carried(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [hi, lo] = address.range() === '6to4' ? [address.parts[1]!, address.parts[2]!] : [address.parts[6]!, address.parts[7]!];
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}

function verdictOf(address: Parsed): AddressVerdict {
  const range = rangeOf(address);
  switch (range.reach) {
    case 'global':
      return { public: true, thisMachine: false, what: range.what };
    case 'local':
      return { public: false, thisMachine: false, what: range.what };
    case 'loopback':
      return { public: false, thisMachine: true, what: range.what };
    case 'mapped':
      return verdictOf(carried(address as ipaddr.IPv6));
    case 'translated': {
      const inner = verdictOf(carried(address as ipaddr.IPv6));
      return inner.public ? inner : { public: false, thisMachine: false, what: `${range.what} of ${inner.what}` };
    }
  }
}

/**
 * An IP literal in a form ipaddr.js reads as written. Lesson: ipaddr.js takes `::a.b.c.d`
 * (IPv4-compatible, which a connection reaches over IPv6) for `::ffff:a.b.c.d` (IPv4-mapped, which
 * it reaches over IPv4); the URL parser writes every IPv6 address in hex groups, so it is read
 * right. A zone (`%eth0`) says which interface, not which range, and is dropped.
 */
function parse(address: string): Parsed {
  if (isIP(address) === 4) return ipaddr.parse(address);
  return ipaddr.parse(new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1));
}

/** The verdict on an IP literal (brackets and a zone allowed); anything that is not one is not public. */
export function addressVerdict(address: string): AddressVerdict {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return { public: false, thisMachine: false, what: 'not an IP address' };
  return verdictOf(parse(bare));
}

/** Whether a delivery may go to this address: public, or this machine where the deployment allows it. */
export function deliverable(address: string, allowLoopback: boolean): { ok: true } | { ok: false; what: string } {
  const verdict = addressVerdict(address);
  if (verdict.public || (verdict.thisMachine && allowLoopback)) return { ok: true };
  return { ok: false, what: verdict.what };
}

/** A host name without the one trailing dot of its fully qualified form (`hooks.example.com.`). */
export function bareName(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/** A name that means this machine whatever DNS says (RFC 6761 section 6.3). */
export function isLoopbackName(host: string): boolean {
  const h = bareName(host);
  return h === 'localhost' || h.endsWith('.localhost');
}
