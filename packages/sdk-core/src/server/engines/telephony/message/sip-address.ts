import { SipParseError } from './sip-message.js';

/** A `sip:`/`sips:`/`tel:` URI, split into what routing needs. */
export interface SipUri {
  scheme: string;
  user: string;
  host: string;
  port: number | undefined;
  params: Record<string, string>;
}

/** `"Name" <sip:user@host>;tag=x` (From, To, Contact, Refer-To). */
export interface NameAddress {
  display: string;
  uri: string;
  params: Record<string, string>;
}

export function parseParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const part of text.split(';')) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const equals = trimmed.indexOf('=');
    if (equals < 0) params[trimmed.toLowerCase()] = '';
    else
      params[trimmed.slice(0, equals).trim().toLowerCase()] = trimmed
        .slice(equals + 1)
        .trim()
        .replace(/^"|"$/g, '');
  }
  return params;
}

export function parseUri(text: string): SipUri {
  const match = /^(sips?|tel):(?:([^@;?]*)@)?([^;?]*)((?:;[^?]*)?)/i.exec(text.trim());
  if (!match) throw new SipParseError(`Malformed URI: ${text.slice(0, 60)}`);
  const scheme = match[1]!.toLowerCase();
  if (scheme === 'tel') return { scheme, user: decodeURIComponent(match[3]!), host: '', port: undefined, params: parseParams(match[4] ?? '') };
  const hostPort = match[3]!;
  const ipv6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostPort);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(hostPort);
  const host = ipv6?.[1] ?? plain?.[1];
  if (!host) throw new SipParseError(`Malformed URI host: ${text.slice(0, 60)}`);
  const portText = ipv6?.[2] ?? plain?.[2];
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port <= 0 || port > 65535)) throw new SipParseError('Malformed URI port');
  const user = match[2] === undefined ? '' : decodeURIComponent(match[2].split(':')[0]!);
  return { scheme, user, host, port, params: parseParams(match[4] ?? '') };
}

export function parseNameAddress(text: string): NameAddress {
  const value = text.trim();
  const open = value.indexOf('<');
  if (open >= 0) {
    const close = value.indexOf('>', open);
    if (close < 0) throw new SipParseError('Unclosed < in address');
    const display = value.slice(0, open).trim().replace(/^"|"$/g, '');
    return { display, uri: value.slice(open + 1, close).trim(), params: parseParams(value.slice(close + 1)) };
  }
  // addr-spec without brackets: parameters after the URI belong to the header (RFC 3261 20.10).
  const semicolon = value.indexOf(';');
  return semicolon < 0 ? { display: '', uri: value, params: {} } : { display: '', uri: value.slice(0, semicolon), params: parseParams(value.slice(semicolon)) };
}

export function formatNameAddress(address: NameAddress): string {
  const display = address.display ? `"${address.display.replace(/"/g, '')}" ` : '';
  const params = Object.entries(address.params)
    .map(([key, value]) => (value === '' ? `;${key}` : `;${key}=${value}`))
    .join('');
  return `${display}<${address.uri}>${params}`;
}

/** One Via entry: `SIP/2.0/UDP host:port;branch=z9hG4bK...;rport`. */
export interface Via {
  transport: string;
  host: string;
  port: number | undefined;
  params: Record<string, string>;
}

export function parseVia(text: string): Via {
  const match = /^SIP\s*\/\s*2\.0\s*\/\s*([A-Za-z]+)\s+([^;\s]+)(.*)$/i.exec(text.trim());
  if (!match) throw new SipParseError('Malformed Via');
  const hostPort = match[2]!;
  const ipv6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostPort);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(hostPort);
  const host = ipv6?.[1] ?? plain?.[1];
  if (!host) throw new SipParseError('Malformed Via host');
  const port = ipv6?.[2] ?? plain?.[2];
  return { transport: match[1]!.toUpperCase(), host, port: port === undefined ? undefined : Number(port), params: parseParams(match[3] ?? '') };
}
