import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may be delivered to (section 6 item 2: "public HTTPS"). Every range
 * that is not the public internet is refused: a delivery must never reach the sandbox's own
 * machine, its network, or a cloud's metadata service (169.254.169.254) on a user's say-so.
 * Lesson: an IPv4 address can hide inside IPv6 (`::ffff:10.0.0.1`, NAT64, 6to4), so those are
 * judged by the IPv4 address they carry.
 */

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'shared'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'reserved';

const V4: [string, number, AddressKind][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6: [string, number, AddressKind][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'reserved'],
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved'],
  ['ff00::', 8, 'multicast'],
];

function blockList(type: 'ipv4' | 'ipv6', ranges: [string, number, AddressKind][]): [BlockList, AddressKind][] {
  return ranges.map(([network, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return [list, kind];
  });
}

const V4_LISTS = blockList('ipv4', V4);
const V6_LISTS = blockList('ipv6', V6);

/** The IPv4 address an IPv6 address carries: IPv4-mapped or -compatible, NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedV4(words: number[]): string | undefined {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && (words[5] === 0xffff || words[5] === 0)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!);
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!);
  return undefined;
}

function words(address: string): number[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const expand = (groups: string[]) =>
    groups.flatMap((g) => {
      if (!g.includes('.')) return [parseInt(g, 16)];
      const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  const left = expand(part(head));
  const right = expand(part(tail));
  return tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

/** What kind of address this IP literal is; `reserved` for anything that is not an IP address. */
export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return V4_LISTS.find(([list]) => list.check(bare, 'ipv4'))?.[1] ?? 'public';
  if (family !== 6) return 'reserved';
  const inner = embeddedV4(words(bare.toLowerCase()));
  if (inner !== undefined && !(bare === '::' || bare === '::1')) return addressKind(inner);
  return V6_LISTS.find(([list]) => list.check(bare, 'ipv6'))?.[1] ?? 'public';
}

/** The kind in words, with its article: "a private address", "an unspecified address". */
export function describeKind(kind: AddressKind): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`;
}

/** Whether a delivery may go to this address: public, or loopback where the deployment allows it. */
export function deliverable(address: string, allowLoopback: boolean): { ok: true } | { ok: false; kind: AddressKind } {
  const kind = addressKind(address);
  if (kind === 'public' || (kind === 'loopback' && allowLoopback)) return { ok: true };
  return { ok: false, kind };
}
