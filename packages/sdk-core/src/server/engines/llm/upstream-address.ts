import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { BadRequestError } from '../../../errors/api-error.js';

/** Which non-public destinations an upstream LLM URL may resolve to. */
export interface UpstreamAddressPolicy {
  allowLoopback: boolean;
  allowPrivateNetworks: boolean;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Private, link-local (cloud metadata), carrier-grade NAT, unspecified and multicast ranges. */
const privateNetworks = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv6');
}

type AddressClass = 'loopback' | 'private' | 'public';
/** `BlockList.check` costs about 0.1 ms; the gateway asks about the same few addresses on every request. */
const classified = new Map<string, AddressClass>();
const MAX_CLASSIFIED = 1024;

/** Classifies one IP address; IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry. */
export function addressClass(address: string): AddressClass {
  let kind = classified.get(address);
  if (kind === undefined) {
    kind = classify(address);
    if (classified.size >= MAX_CLASSIFIED) classified.clear();
    classified.set(address, kind);
  }
  return kind;
}

function classify(address: string): AddressClass {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (loopback.check(ip, family)) return 'loopback';
  if (privateNetworks.check(ip, family)) return 'private';
  return 'public';
}

/**
 * The refusal of a URL carrying credentials (`https://user:pass@host/`): they would travel to whatever host
 * follows the `@`, which also hides the real destination from a reader (`http://api.example.com@10.0.0.1/`).
 */
export const CREDENTIALS_IN_URL = (field: string): string =>
  `${field}: credentials in the URL ('user@host') are not allowed; send them in a header (an Authorization header can reference a secret)`;

function refusal(kind: AddressClass): BadRequestError {
  return new BadRequestError(
    `model: the LLM's post_url resolves to a ${kind} address, which this server does not allow (set PALAVER_LLM_ALLOW_${kind === 'loopback' ? 'LOOPBACK' : 'PRIVATE'}=true to allow it)`,
  );
}

/** The refusal of a connection to this address, or undefined when the policy allows it. */
function refusalFor(address: string, policy: UpstreamAddressPolicy): BadRequestError | undefined {
  const kind = addressClass(address);
  if ((kind === 'loopback' && !policy.allowLoopback) || (kind === 'private' && !policy.allowPrivateNetworks)) return refusal(kind);
  return undefined;
}

/** The refusal for the first of a host's addresses the policy does not allow: every one must be allowed. */
function firstRefusal(addresses: ReadonlyArray<{ address: string }>, policy: UpstreamAddressPolicy): BadRequestError | undefined {
  for (const { address } of addresses) {
    const refused = refusalFor(address, policy);
    if (refused) return refused;
  }
  return undefined;
}

function unresolvable(host: string, cause: unknown): BadRequestError {
  return new BadRequestError(`model: the LLM's post_url host '${host}' does not resolve`, { cause });
}

/** The URL's host without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * What can be judged from the URL alone: http(s), no credentials, and an IP literal host's class. A host name is
 * judged by {@link checkedLookup} when a connection resolves it.
 */
export function assertUpstreamTarget(url: URL, policy: UpstreamAddressPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequestError(`model: the LLM's post_url must be http(s), not ${url.protocol}`);
  if (url.username || url.password) throw new BadRequestError(CREDENTIALS_IN_URL('model: the LLM\'s post_url'));
  const host = hostOf(url);
  if (isIP(host)) {
    const refused = refusalFor(host, policy);
    if (refused) throw refused;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets (an HTTP agent's connections) that resolves the host and refuses the connection when any
 * of its addresses is one the policy does not allow: the address checked is the address connected to, and a
 * kept-alive connection is not resolved again.
 */
export function checkedLookup(policy: UpstreamAddressPolicy): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      const refused = error ? unresolvable(hostname, error) : firstRefusal(addresses, policy);
      if (refused) {
        callback(refused as unknown as NodeJS.ErrnoException, []);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Refuses an upstream URL whose host resolves to a loopback or private address unless the policy allows
 * it (SSRF, OWASP API7): every resolved address must be allowed.
 *
 * @example
 * await assertUpstreamAllowed(new URL(llm.post_url), { allowLoopback: false, allowPrivateNetworks: false });
 */
export async function assertUpstreamAllowed(url: URL, policy: UpstreamAddressPolicy, resolve: typeof lookup = lookup): Promise<void> {
  assertUpstreamTarget(url, policy);
  const host = hostOf(url);
  if (isIP(host)) return;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host, { all: true });
  } catch (error) {
    throw unresolvable(host, error);
  }
  const refused = firstRefusal(addresses, policy);
  if (refused) throw refused;
}
