import { BlockList, isIP } from 'node:net';
import type { SIPInboundTrunkInfo } from '@livekit/protocol';

/**
 * A number as LiveKit compares them: with a leading `+` (E.164), so `15550100` and `+15550100` are one number.
 * Empty stays empty (any).
 */
export function normalizeNumber(number: string): string {
  if (number === '') return '';
  return number.startsWith('+') ? number : `+${number}`;
}

/** Whether `number` is one of `allowed` (an empty list allows every number). */
export function numberAllowed(number: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const normal = normalizeNumber(number);
  return allowed.some((entry) => normalizeNumber(entry) === normal);
}

/**
 * Whether `address` is one of `allowed`: IPv4 or IPv6 addresses and CIDR ranges (`10.0.0.0/8`, `2001:db8::/32`);
 * an empty list allows every address. Entries that are neither are ignored, as LiveKit does. Node's `BlockList`
 * does the range arithmetic (an IPv4-mapped IPv6 source matches its IPv4 entries).
 */
export function addressAllowed(address: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const source = unmapped(address);
  const family = isIP(source);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowed) {
    const parsed = addressEntry(entry);
    if (!parsed) continue;
    if (parsed.prefix === undefined) list.addAddress(parsed.host, parsed.type);
    else list.addSubnet(parsed.host, parsed.prefix, parsed.type);
  }
  return list.check(source, family === 4 ? 'ipv4' : 'ipv6');
}

/** An `allowed_addresses` entry: an IP address or a CIDR range; undefined when it is neither. */
export function addressEntry(entry: string): { host: string; prefix?: number; type: 'ipv4' | 'ipv6' } | undefined {
  const [host = '', prefix, extra] = entry.trim().split('/');
  const family = isIP(host);
  if (family === 0 || extra !== undefined) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) return { host, type };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return undefined;
  return { host, prefix: Number(prefix), type };
}

/** `::ffff:192.0.2.1` -> `192.0.2.1` (a dual-stack socket's view of an IPv4 peer). */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : address;
}

export type TrunkMatch =
  | { kind: 'trunk'; project: string; trunk: SIPInboundTrunkInfo }
  | { kind: 'address-refused'; project: string; trunk: SIPInboundTrunkInfo }
  | { kind: 'none' }
  | { kind: 'conflict'; message: string };

/**
 * The inbound trunk of a call, as LiveKit picks it: among trunks whose `allowedNumbers` accept the caller and whose
 * `allowedAddresses` accept the source, one listing the dialled number wins over a trunk without numbers (the
 * default); two of either kind matching is a conflict. When no trunk matched but one would have for another source
 * address, the answer is `address-refused` (the endpoint answers 403 instead of 404).
 */
export function matchInboundTrunk(
  candidates: ReadonlyArray<{ project: string; trunk: SIPInboundTrunkInfo }>,
  call: { fromUser: string; toUser: string; sourceAddress: string },
): TrunkMatch {
  const accepting = candidates.filter(({ trunk }) => numberAllowed(call.fromUser, trunk.allowedNumbers));
  const pick = (trunks: typeof accepting): TrunkMatch => {
    const called = normalizeNumber(call.toUser);
    const specific = trunks.filter(({ trunk }) => trunk.numbers.some((number) => normalizeNumber(number) === called));
    if (specific.length > 1) return { kind: 'conflict', message: `Multiple SIP Trunks matched for "${call.toUser}"` };
    if (specific.length === 1) return { kind: 'trunk', ...specific[0]! };
    const defaults = trunks.filter(({ trunk }) => trunk.numbers.length === 0);
    if (defaults.length > 1) return { kind: 'conflict', message: `Multiple default SIP Trunks matched for "${call.toUser}"` };
    if (defaults.length === 1) return { kind: 'trunk', ...defaults[0]! };
    return { kind: 'none' };
  };
  const matched = pick(accepting.filter(({ trunk }) => addressAllowed(call.sourceAddress, trunk.allowedAddresses)));
  if (matched.kind !== 'none') return matched;
  const ignoringAddress = pick(accepting);
  return ignoringAddress.kind === 'trunk' ? { kind: 'address-refused', project: ignoringAddress.project, trunk: ignoringAddress.trunk } : { kind: 'none' };
}

/**
 * The conflict LiveKit refuses when a trunk is created or changed: two inbound trunks of a project answering the same
 * dialled number (or both any number) for the same caller (or both any caller). Undefined when there is none.
 */
export function inboundTrunkConflict(trunks: readonly SIPInboundTrunkInfo[]): string | undefined {
  const seen = new Map<string, SIPInboundTrunkInfo>();
  for (const trunk of trunks) {
    const numbers = trunk.numbers.length === 0 ? [''] : trunk.numbers.map(normalizeNumber);
    const callers = trunk.allowedNumbers.length === 0 ? [''] : trunk.allowedNumbers.map(normalizeNumber);
    for (const number of numbers) {
      for (const caller of callers) {
        const key = `${number}\u0000${caller}`;
        const other = seen.get(key);
        if (other && other.sipTrunkId !== trunk.sipTrunkId) {
          return `Conflicting inbound SIP Trunks: "${idOf(trunk.sipTrunkId)}" and "${idOf(other.sipTrunkId)}", using the same number ${number || '<any>'}${caller ? ` and allowed number ${caller}` : ' without allowed numbers'}`;
        }
        seen.set(key, trunk);
      }
    }
  }
  return undefined;
}

const idOf = (id: string): string => id || '<new>';
