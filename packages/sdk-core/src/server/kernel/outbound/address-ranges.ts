import { BlockList, isIP } from 'node:net';
import { timedCache } from '../timed-cache.js';

/**
 * What an IP address reaches, as far as outbound requests are concerned: `loopback` (this host), `private` (a
 * private, CGNAT or benchmarking network), `link-local` (cloud metadata services live at 169.254.169.254),
 * `unroutable` (unspecified, documentation, multicast, reserved: 0.0.0.0 reaches this host on Linux) or `public`.
 */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unroutable';

type NonPublic = Exclude<AddressKind, 'public'>;

/** The one table of non-public ranges (IANA special-purpose registries), checked in this order of kinds. */
const RANGES: ReadonlyArray<readonly [NonPublic, string]> = [
  ['loopback', '127.0.0.0/8'],
  ['loopback', '::1/128'],
  ['link-local', '169.254.0.0/16'],
  ['link-local', 'fe80::/10'],
  ['unroutable', '0.0.0.0/8'],
  ['unroutable', '192.0.2.0/24'],
  ['unroutable', '198.51.100.0/24'],
  ['unroutable', '203.0.113.0/24'],
  ['unroutable', '224.0.0.0/4'],
  ['unroutable', '240.0.0.0/4'],
  // The unspecified address and the deprecated IPv4-compatible ones (::a.b.c.d); ::1 is judged above.
  ['unroutable', '::/96'],
  ['unroutable', '100::/64'],
  ['unroutable', '2001::/32'],
  ['unroutable', '2001:db8::/32'],
  ['unroutable', 'ff00::/8'],
  ['private', '10.0.0.0/8'],
  ['private', '100.64.0.0/10'],
  ['private', '172.16.0.0/12'],
  ['private', '192.0.0.0/24'],
  ['private', '192.168.0.0/16'],
  ['private', '198.18.0.0/15'],
  ['private', 'fc00::/7'],
  ['private', 'fec0::/10'],
  ['private', '64:ff9b:1::/48'],
];

const ORDER: readonly NonPublic[] = ['loopback', 'link-local', 'unroutable', 'private'];

const lists = new Map<NonPublic, BlockList>(ORDER.map((kind) => [kind, new BlockList()]));
for (const [kind, range] of RANGES) {
  const [network, prefix] = range.split('/') as [string, string];
  lists.get(kind)!.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
}

/** The eight 16-bit words of an IPv6 address (WHATWG URL parsing gives its canonical, compressed form). */
function ipv6Words(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16)));
  if (tail === undefined) return words(head);
  const start = words(head);
  const end = words(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

/**
 * The IPv4 address an IPv6 address carries to an IPv4 host: IPv4-mapped (::ffff:a.b.c.d) and -translated
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
 */
function embeddedIpv4(address: string): string | undefined {
  const words = ipv6Words(address);
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  const quad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (zeros(0, 4) && ((words[4] === 0 && words[5] === 0xffff) || (words[4] === 0xffff && words[5] === 0))) return quad(words[6]!, words[7]!);
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return quad(words[6]!, words[7]!);
  if (words[0] === 0x2002) return quad(words[1]!, words[2]!);
  return undefined;
}

function classify(address: string): AddressKind {
  const ip = address.replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return 'unroutable';
  if (family === 6) {
    const carried = embeddedIpv4(ip);
    if (carried !== undefined) return classify(carried);
  }
  const type = family === 6 ? 'ipv6' : 'ipv4';
  return ORDER.find((kind) => lists.get(kind)!.check(ip, type)) ?? 'public';
}

/** `BlockList.check` costs about 0.1 ms; the same few addresses are asked about on every request. */
const classified = timedCache<string, AddressKind>({ max: 1024 });

/**
 * What an IP address (v4 or v6, with or without an IPv6 zone) reaches; anything that is not an IP address is
 * `unroutable`. IPv6 addresses that carry an IPv4 address to an IPv4 host are judged as that IPv4 address.
 *
 * @example
 * addressKind('::ffff:127.0.0.1'); // 'loopback'
 */
export function addressKind(address: string): AddressKind {
  let kind = classified.get(address);
  if (kind === undefined) {
    kind = classify(address);
    classified.set(address, kind);
  }
  return kind;
}
