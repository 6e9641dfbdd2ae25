// Which webhook endpoints are public (section 6 item 2), judged against IANA's IPv4 and IPv6
// Special-Purpose Address Registries row by row. The rows below are the registries as published
// (address block, name, "Globally Reachable"), written out here by hand from IANA's pages, so the
// server's own data (server/webhooks/special-purpose.ts, with ipaddr.js) is checked against a copy
// it was not made from. Nothing here resolves a name or opens a connection.
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { deliverable } from '../webhooks/addresses.js';
import { checkEndpointUrl } from '../domain/back-office/webhook-endpoint.js';
import { IPV4_RANGES, IPV6_RANGES } from '../webhooks/special-purpose.js';
import { ApiError } from '../domain/errors.js';

/** "Globally Reachable" as the registry gives it; '' for a terminated block, whose flags are empty. */
type Reachable = 'True' | 'False' | 'N/A' | '';
type Row = [block: string, name: string, reachable: Reachable];

/** IANA IPv4 Special-Purpose Address Registry (every row). */
const IPV4_REGISTRY: Row[] = [
  ['0.0.0.0/8', '"This network"', 'False'],
  ['0.0.0.0/32', '"This host on this network"', 'False'],
  ['10.0.0.0/8', 'Private-Use', 'False'],
  ['100.64.0.0/10', 'Shared Address Space', 'False'],
  ['127.0.0.0/8', 'Loopback', 'False'],
  ['169.254.0.0/16', 'Link Local', 'False'],
  ['172.16.0.0/12', 'Private-Use', 'False'],
  ['192.0.0.0/24', 'IETF Protocol Assignments', 'False'],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix', 'False'],
  ['192.0.0.8/32', 'IPv4 dummy address', 'False'],
  ['192.0.0.9/32', 'Port Control Protocol Anycast', 'True'],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', 'True'],
  // One row of the registry, with two blocks.
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery', 'False'],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery', 'False'],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)', 'False'],
  ['192.31.196.0/24', 'AS112-v4', 'True'],
  ['192.52.193.0/24', 'AMT', 'True'],
  ['192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', ''],
  ['192.88.99.2/32', '6a44-relay anycast address', 'False'],
  ['192.168.0.0/16', 'Private-Use', 'False'],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service', 'True'],
  ['198.18.0.0/15', 'Benchmarking', 'False'],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)', 'False'],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)', 'False'],
  ['240.0.0.0/4', 'Reserved', 'False'],
  ['255.255.255.255/32', 'Limited Broadcast', 'False'],
];

/** IANA IPv6 Special-Purpose Address Registry (every row). */
const IPV6_REGISTRY: Row[] = [
  ['::1/128', 'Loopback Address', 'False'],
  ['::/128', 'Unspecified Address', 'False'],
  ['::ffff:0:0/96', 'IPv4-mapped Address', 'False'],
  ['64:ff9b::/96', 'IPv4-IPv6 Translat.', 'True'],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translat.', 'False'],
  ['100::/64', 'Discard-Only Address Block', 'False'],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix', 'False'],
  ['2001::/23', 'IETF Protocol Assignments', 'False'],
  ['2001::/32', 'TEREDO', 'N/A'],
  ['2001:1::1/128', 'Port Control Protocol Anycast', 'True'],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast', 'True'],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast', 'True'],
  ['2001:2::/48', 'Benchmarking', 'False'],
  ['2001:3::/32', 'AMT', 'True'],
  ['2001:4:112::/48', 'AS112-v6', 'True'],
  ['2001:10::/28', 'Deprecated (previously ORCHID)', ''],
  ['2001:20::/28', 'ORCHIDv2', 'True'],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', 'True'],
  ['2001:db8::/32', 'Documentation', 'False'],
  ['2002::/16', '6to4', 'N/A'],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service', 'True'],
  ['3fff::/20', 'Documentation', 'False'],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs', 'False'],
  ['fc00::/7', 'Unique-Local', 'False'],
  ['fe80::/10', 'Link-Local Unicast', 'False'],
];

/**
 * Blocks whose addresses carry an IPv4 address, judged by it rather than by the row: an IPv4-mapped
 * address is dialled as its IPv4 address; a well-known NAT64 or 6to4 address reaches the IPv4
 * address it carries through a gateway. Their first and last addresses carry 0.0.0.0 and
 * 255.255.255.255, never public; each also gets one public and one private address below.
 */
const CARRIES_IPV4 = new Set(['::ffff:0:0/96', '64:ff9b::/96', '2002::/16']);

/** The verdict the registry's row asks for, on an address the row itself decides. */
function expected(block: string, reachable: Reachable): boolean {
  if (CARRIES_IPV4.has(block)) return false;
  // Teredo (N/A) is reached only through relays; a terminated block is no longer public space.
  return reachable === 'True';
}

interface Block {
  block: string;
  first: bigint;
  last: bigint;
  bits: number;
  prefix: number;
}

function blockOf(cidr: string): Block {
  const [address, prefix] = ipaddr.parseCIDR(cidr);
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  const value = address.toByteArray().reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
  const size = 1n << BigInt(bits - prefix);
  const first = value & ~(size - 1n);
  return { block: cidr, first, last: first + size - 1n, bits, prefix };
}

function text(value: bigint, bits: number): string {
  const bytes = Array.from({ length: bits / 8 }, (_, i) => Number((value >> BigInt(bits - 8 - 8 * i)) & 255n));
  return ipaddr.fromByteArray(bytes).toString();
}

/**
 * The first and the last address of `block` that no more specific row of the same registry
 * covers: the addresses this row, and no other, decides.
 */
function ownAddresses(block: Block, registry: Block[]): string[] {
  const inner = registry.filter((b) => b.prefix > block.prefix && b.first >= block.first && b.last <= block.last);
  const covering = (v: bigint) => inner.find((b) => v >= b.first && v <= b.last);
  let low = block.first;
  for (let b = covering(low); b; b = covering(low)) low = b.last + 1n;
  let high = block.last;
  for (let b = covering(high); b; b = covering(high)) high = b.first - 1n;
  if (low > high) return [];
  return [...new Set([text(low, block.bits), text(high, block.bits)])];
}

describe('the IANA special-purpose registries, row by row', () => {
  for (const [name, registry] of [
    ['IPv4', IPV4_REGISTRY],
    ['IPv6', IPV6_REGISTRY],
  ] as const) {
    const blocks = registry.map(([cidr]) => blockOf(cidr));
    it(`when an address is in a row of the ${name} registry, then it is public exactly when the row says globally reachable`, () => {
      const verdicts: Record<string, boolean> = {};
      const wanted: Record<string, boolean> = {};
      for (const [i, [cidr, rowName, reachable]] of registry.entries()) {
        const own = ownAddresses(blocks[i]!, blocks);
        expect(own.length, `${cidr} ${rowName}: some address of the row is its own`).toBeGreaterThan(0);
        for (const address of own) {
          const key = `${cidr} (${rowName}) ${address}`;
          verdicts[key] = deliverable(address, false).ok;
          wanted[key] = expected(cidr, reachable);
        }
      }
      expect(verdicts).toEqual(wanted);
    });
  }

  it('when an address carries an IPv4 address, then it is judged by the address it carries', () => {
    const verdicts = Object.fromEntries(
      ['::ffff:8.8.8.8', '::ffff:10.0.0.1', '64:ff9b::8.8.8.8', '64:ff9b::10.0.0.1', '2002:808:808::1', '2002:a00:1::1'].map((a) => [a, deliverable(a, false).ok]),
    );
    expect(verdicts).toEqual({
      '::ffff:8.8.8.8': true,
      '::ffff:10.0.0.1': false,
      '64:ff9b::8.8.8.8': true,
      '64:ff9b::10.0.0.1': false,
      '2002:808:808::1': true,
      '2002:a00:1::1': false,
    });
  });

  it('when an address is in none of the rows, then IPv4 outside multicast and IPv6 in 2000::/3 are public, and nothing else', () => {
    const verdicts = Object.fromEntries(
      ['8.8.8.8', '172.32.0.1', '224.0.0.1', '239.255.255.250', '2606:4700::1111', '4000::1', '::7f00:1', 'ff02::1', 'fec0::1'].map((a) => [a, deliverable(a, false).ok]),
    );
    expect(verdicts).toEqual({
      '8.8.8.8': true,
      '172.32.0.1': true,
      '224.0.0.1': false,
      '239.255.255.250': false,
      '2606:4700::1111': true,
      '4000::1': false,
      '::7f00:1': false,
      'ff02::1': false,
      'fec0::1': false,
    });
  });

  it('when ipaddr.js names a range, then the data module knows it (a new name in a new release fails here)', () => {
    const names = (family: typeof ipaddr.IPv4 | typeof ipaddr.IPv6) => ['unicast', ...Object.keys((family.prototype as unknown as { SpecialRanges: object }).SpecialRanges)].sort();
    expect(names(ipaddr.IPv4)).toEqual(Object.keys(IPV4_RANGES).sort());
    expect(names(ipaddr.IPv6)).toEqual(Object.keys(IPV6_RANGES).sort());
  });
});

describe('deliverable', () => {
  it('when an address is local-use NAT64, an SRv6 SID, documentation or a dummy address, then it is refused, loopback allowed or not', () => {
    for (const address of ['64:ff9b:1::a9fe:a9fe', '64:ff9b:1::1', '5f00::1', '5f00:ffff::1', '3fff::1', '3fff:fff::1', '100:0:0:1::1', '192.0.0.8']) {
      expect(deliverable(address, false).ok, address).toBe(false);
      expect(deliverable(address, true).ok, address).toBe(false);
    }
  });

  it('when loopback is allowed, then only forms that stay on this machine are taken for it; NAT64, 6to4 and IPv4-compatible forms are refused', () => {
    const thisMachine = ['127.0.0.1', '127.5.5.5', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1'];
    const elsewhere = ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1', '::127.0.0.1', '::7f00:1', '64:ff9b:1::7f00:1', '0.0.0.0', '::'];
    expect(Object.fromEntries([...thisMachine, ...elsewhere].map((a) => [a, deliverable(a, true).ok]))).toEqual(
      Object.fromEntries([...thisMachine.map((a) => [a, true]), ...elsewhere.map((a) => [a, false])]),
    );
    for (const a of thisMachine) expect(deliverable(a, false).ok, a).toBe(false);
  });
});

describe('checkEndpointUrl', () => {
  const refusal = (url: string, allowLoopback: boolean) => {
    try {
      checkEndpointUrl(url, allowLoopback);
      return 'accepted';
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      return (e as ApiError).code;
    }
  };

  it('when the host is an empty-labelled name, a single label with a trailing dot, or the URL has an empty fragment, then 400 bad_request', () => {
    for (const allowLoopback of [false, true]) {
      for (const url of ['https://localhost../', 'https://intranet./', 'https://intranet/', 'https://hooks..example.com/', 'https://hooks.example.com/#', 'https://hooks.example.com/path#']) {
        expect(refusal(url, allowLoopback), `${url} (loopback ${allowLoopback})`).toBe('bad_request');
      }
    }
  });

  it('when a fully qualified name keeps its trailing dot, then it is judged as the name', () => {
    expect(checkEndpointUrl('https://hooks.example.com./vault', false).href).toBe('https://hooks.example.com./vault');
    expect(refusal('https://localhost./', false)).toBe('bad_request');
    expect(checkEndpointUrl('http://localhost.:4242/', true).href).toBe('http://localhost.:4242/');
  });

  it('when the host is a local-use NAT64, SRv6, documentation or translated loopback address, then 400 bad_request, loopback allowed or not', () => {
    for (const allowLoopback of [false, true]) {
      for (const url of ['https://[64:ff9b:1::a9fe:a9fe]/', 'https://[5f00::1]/', 'https://[3fff::1]/', 'http://[64:ff9b::7f00:1]/', 'http://[2002:7f00:1::1]/', 'http://[::127.0.0.1]/']) {
        expect(refusal(url, allowLoopback), `${url} (loopback ${allowLoopback})`).toBe('bad_request');
      }
    }
  });
});
