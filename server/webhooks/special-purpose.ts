/**
 * Which addresses are globally reachable, after IANA's IPv4 and IPv6 Special-Purpose Address
 * Registries (RFC 6890: https://www.iana.org/assignments/iana-ipv4-special-registry/ and
 * https://www.iana.org/assignments/iana-ipv6-special-registry/, their "Globally Reachable" column),
 * with IANA's IPv4 multicast block (224.0.0.0/4) and IPv6 Global Unicast space (2000::/3, the IPv6
 * Address Space registry). This is the one place those registries are written down here.
 *
 * ipaddr.js names most of the registries' blocks (`range()`), but not all of them, and under one
 * name it joins blocks the registries set apart (`rfc6052` is both the well-known NAT64 prefix,
 * globally reachable, and the local-use one, which is not). So each of its names maps to a reach
 * below, and `MORE_SPECIFIC` holds the registries' rows it lacks or joins, checked first.
 * server/test/webhooks-addresses.test.ts walks every row of both registries, and fails when
 * ipaddr.js names a range this file does not know.
 */

/**
 * - `global`: Globally Reachable (an ordinary public address included).
 * - `local`: not globally reachable, or a terminated block, or one the registry leaves open (Teredo).
 * - `loopback`: not globally reachable, and this machine.
 * - `mapped`: IPv4-mapped (`::ffff:a.b.c.d`): a connection to it goes to the IPv4 address it carries.
 * - `translated`: the well-known NAT64 prefix and 6to4: a gateway elsewhere sends the packet on to
 *   the IPv4 address it carries, which is never this machine.
 */
export type Reach = 'global' | 'local' | 'loopback' | 'mapped' | 'translated';

export interface Range {
  reach: Reach;
  /** The block in words, with its article, for a refusal: "a private address". */
  what: string;
}

const local = (what: string): Range => ({ reach: 'local', what });
const global = (what: string): Range => ({ reach: 'global', what });

/** Each name ipaddr.js's `range()` gives an IPv4 address. */
export const IPV4_RANGES: Record<string, Range> = {
  unicast: global('a public address'),
  unspecified: local('an unspecified ("this network") address'),
  broadcast: local('the limited broadcast address'),
  multicast: local('a multicast address'),
  linkLocal: local('a link-local address'),
  loopback: { reach: 'loopback', what: 'a loopback address' },
  carrierGradeNat: local('a shared (carrier-grade NAT) address'),
  private: local('a private address'),
  // 192.0.0.0/24, documentation, 6to4 relay anycast (terminated), benchmarking, 240.0.0.0/4.
  reserved: local('a reserved address'),
  as112: global('an AS112 address'),
  amt: global('an AMT relay address'),
};

/** Each name ipaddr.js's `range()` gives an IPv6 address; `unicast` is global only inside 2000::/3. */
export const IPV6_RANGES: Record<string, Range> = {
  unicast: global('a public address'),
  unspecified: local('the unspecified address'),
  linkLocal: local('a link-local address'),
  multicast: local('a multicast address'),
  loopback: { reach: 'loopback', what: 'the loopback address' },
  uniqueLocal: local('a unique-local (private) address'),
  ipv4Mapped: { reach: 'mapped', what: 'an IPv4-mapped address' },
  deprecatedSiteLocal: local('a site-local address'),
  discard: local('a discard-only address'),
  rfc6145: local('an IPv4-translated address'),
  rfc6052: { reach: 'translated', what: 'a NAT64 address' },
  '6to4': { reach: 'translated', what: 'a 6to4 address' },
  teredo: local('a Teredo address'),
  benchmarking: local('a benchmarking address'),
  amt: global('an AMT relay address'),
  as112v6: global('an AS112 address'),
  deprecatedOrchid: local('a deprecated ORCHID address'),
  orchid2: global('an ORCHIDv2 address'),
  droneRemoteIdProtocolEntityTags: global('a drone remote ID (DET) address'),
  segmentRouting: local('an SRv6 segment identifier'),
  // 2001::/23 (IETF protocol assignments), 2001:db8::/32 and 3fff::/20 (documentation).
  reserved: local('a reserved or documentation address'),
};

/** Where an IPv6 `unicast` address is public: the Global Unicast space. */
export const IPV6_GLOBAL_UNICAST = '2000::/3';
export const OUTSIDE_GLOBAL_UNICAST = local('an address outside the global unicast space');

/** The registries' rows that ipaddr.js lacks, or names together with rows of another reach. */
export const MORE_SPECIFIC: [cidr: string, range: Range][] = [
  ['192.0.0.0/29', local('an IPv4 service continuity address')],
  ['192.0.0.8/32', local('the IPv4 dummy address')],
  ['192.0.0.9/32', global('the PCP anycast address')],
  ['192.0.0.10/32', global('the TURN anycast address')],
  ['192.0.0.170/32', local('a NAT64/DNS64 discovery address')],
  ['192.0.0.171/32', local('a NAT64/DNS64 discovery address')],
  ['192.88.99.2/32', local('the 6a44 relay anycast address')],
  ['64:ff9b:1::/48', local('a local-use NAT64 address')],
  ['100:0:0:1::/64', local('a dummy IPv6 address')],
  ['2001:1::1/128', global('the PCP anycast address')],
  ['2001:1::2/128', global('the TURN anycast address')],
  ['2001:1::3/128', global('the DNS-SD service registration anycast address')],
];
