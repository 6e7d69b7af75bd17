/**
 * SIP messages (RFC 3261 section 7): a start line, headers, a body. Parsing is strict where a wrong guess
 * would misroute a call (start line, Via, CSeq, Call-ID, From, To) and lenient elsewhere.
 */

export class SipParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SipParseError';
  }
}

/** Compact header forms (RFC 3261 7.3.3 and extensions) to their long names, lower-cased. */
const COMPACT: Record<string, string> = {
  v: 'via',
  f: 'from',
  t: 'to',
  i: 'call-id',
  m: 'contact',
  l: 'content-length',
  c: 'content-type',
  k: 'supported',
  s: 'subject',
  e: 'content-encoding',
  o: 'event',
  r: 'refer-to',
  b: 'referred-by',
  x: 'session-expires',
};

/** Headers whose comma-separated values are separate entries (RFC 3261 7.3.1). */
const LIST_HEADERS = new Set(['via', 'route', 'record-route', 'contact', 'allow', 'supported', 'require']);

/** Ordered, case-insensitive header list. */
export class SipHeaders {
  private readonly entries: Array<[string, string]> = [];

  constructor(entries: Array<[string, string]> = []) {
    for (const [name, value] of entries) this.append(name, value);
  }

  static canonical(name: string): string {
    const lower = name.trim().toLowerCase();
    return COMPACT[lower] ?? lower;
  }

  append(name: string, value: string): this {
    this.entries.push([SipHeaders.canonical(name), value.trim()]);
    return this;
  }

  set(name: string, value: string): this {
    this.remove(name);
    return this.append(name, value);
  }

  remove(name: string): this {
    const key = SipHeaders.canonical(name);
    for (let index = this.entries.length - 1; index >= 0; index -= 1) if (this.entries[index]![0] === key) this.entries.splice(index, 1);
    return this;
  }

  get(name: string): string | undefined {
    return this.getAll(name)[0];
  }

  /** Every value of the header, list headers split at top-level commas. */
  getAll(name: string): string[] {
    const key = SipHeaders.canonical(name);
    const values = this.entries.filter(([entry]) => entry === key).map(([, value]) => value);
    return LIST_HEADERS.has(key) ? values.flatMap(splitTopLevel) : values;
  }

  has(name: string): boolean {
    const key = SipHeaders.canonical(name);
    return this.entries.some(([entry]) => entry === key);
  }

  list(): Array<[string, string]> {
    return this.entries.map(([name, value]) => [name, value]);
  }
}

/** Splits at commas outside quotes and angle brackets. */
function splitTopLevel(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index];
    if (char === '"' && value[index - 1] !== '\\') quoted = !quoted;
    else if (!quoted && char === '<') depth += 1;
    else if (!quoted && char === '>') depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && char === ',') {
      parts.push(value.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts.filter((part) => part !== '');
}

export interface SipRequest {
  kind: 'request';
  method: string;
  uri: string;
  headers: SipHeaders;
  body: Buffer;
}

export interface SipResponse {
  kind: 'response';
  status: number;
  reason: string;
  headers: SipHeaders;
  body: Buffer;
}

export type SipMessage = SipRequest | SipResponse;

const MAX_HEADERS = 200;
const TOKEN = /^[A-Za-z0-9.!%*_+`'~-]+$/;

/** Parses one whole message (a datagram, or a TCP frame cut by {@link SipStreamFramer}). */
export function parseSipMessage(data: Buffer): SipMessage {
  const end = data.indexOf('\r\n\r\n');
  const headEnd = end >= 0 ? end : data.length;
  const head = data.subarray(0, headEnd).toString('utf8');
  const lines = head.split(/\r\n/);
  const startLine = lines.shift() ?? '';
  const headers = new SipHeaders();
  let unfolded: string[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && unfolded.length > 0) unfolded[unfolded.length - 1] += ' ' + line.trim();
    else unfolded.push(line);
  }
  unfolded = unfolded.filter((line) => line !== '');
  if (unfolded.length > MAX_HEADERS) throw new SipParseError('Too many headers');
  for (const line of unfolded) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new SipParseError(`Malformed header line: ${line.slice(0, 40)}`);
    const name = line.slice(0, colon).trim();
    if (!TOKEN.test(name)) throw new SipParseError(`Malformed header name: ${name.slice(0, 40)}`);
    headers.append(name, line.slice(colon + 1));
  }
  let body = end >= 0 ? data.subarray(end + 4) : Buffer.alloc(0);
  const length = headers.get('content-length');
  if (length !== undefined) {
    const bytes = Number(length);
    if (!Number.isInteger(bytes) || bytes < 0) throw new SipParseError('Malformed Content-Length');
    if (bytes > body.length) throw new SipParseError('Body shorter than Content-Length');
    body = body.subarray(0, bytes);
  }
  const message = parseStartLine(startLine, headers, Buffer.from(body));
  for (const required of ['via', 'call-id', 'cseq', 'from', 'to']) {
    if (!headers.has(required)) throw new SipParseError(`Missing ${required} header`);
  }
  const cseq = parseCSeq(headers.get('cseq')!);
  if (message.kind === 'request' && cseq.method !== message.method && !(message.method === 'ACK' && cseq.method === 'ACK')) {
    throw new SipParseError('CSeq method does not match the request');
  }
  return message;
}

function parseStartLine(line: string, headers: SipHeaders, body: Buffer): SipMessage {
  const response = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(line);
  if (response) return { kind: 'response', status: Number(response[1]), reason: response[2] ?? '', headers, body };
  const request = /^([A-Za-z]+) (\S+) SIP\/2\.0$/.exec(line);
  if (!request) throw new SipParseError(`Malformed start line: ${line.slice(0, 60)}`);
  return { kind: 'request', method: request[1]!.toUpperCase(), uri: request[2]!, headers, body };
}

export function parseCSeq(value: string): { seq: number; method: string } {
  const match = /^(\d{1,10})\s+([A-Za-z]+)$/.exec(value.trim());
  if (!match) throw new SipParseError('Malformed CSeq');
  return { seq: Number(match[1]), method: match[2]!.toUpperCase() };
}

/** Serialises a message with a correct Content-Length. */
export function serializeSipMessage(message: SipMessage): Buffer {
  const start = message.kind === 'request' ? `${message.method} ${message.uri} SIP/2.0` : `SIP/2.0 ${message.status} ${message.reason}`;
  const lines = [start];
  for (const [name, value] of message.headers.list()) if (name !== 'content-length') lines.push(`${headerName(name)}: ${value}`);
  lines.push(`Content-Length: ${message.body.length}`);
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'utf8'), message.body]);
}

const SPECIAL_NAMES: Record<string, string> = {
  'call-id': 'Call-ID',
  cseq: 'CSeq',
  'www-authenticate': 'WWW-Authenticate',
  'min-se': 'Min-SE',
  rseq: 'RSeq',
  rack: 'RAck',
};

function headerName(name: string): string {
  return SPECIAL_NAMES[name] ?? name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}
