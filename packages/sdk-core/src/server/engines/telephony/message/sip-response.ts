import { SipHeaders, type SipRequest, type SipResponse } from './sip-message.js';

const REASONS: Record<number, string> = {
  100: 'Trying',
  180: 'Ringing',
  200: 'OK',
  202: 'Accepted',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  415: 'Unsupported Media Type',
  420: 'Bad Extension',
  481: 'Call/Transaction Does Not Exist',
  486: 'Busy Here',
  487: 'Request Terminated',
  488: 'Not Acceptable Here',
  491: 'Request Pending',
  500: 'Server Internal Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

export interface ResponseOptions {
  reason?: string;
  /** The To tag of the dialog (added when the request's To has none). */
  toTag?: string;
  headers?: Array<[string, string]>;
  body?: Buffer;
}

/** A response to `request` (RFC 3261 8.2.6): its Vias, From, To, Call-ID and CSeq copied. */
export function createResponse(request: SipRequest, status: number, options: ResponseOptions = {}): SipResponse {
  const headers = new SipHeaders();
  for (const via of request.headers.getAll('via')) headers.append('Via', via);
  headers.append('From', request.headers.get('from') ?? '');
  const to = request.headers.get('to') ?? '';
  headers.append('To', options.toTag && status > 100 && !/;\s*tag=/i.test(to) ? `${to};tag=${options.toTag}` : to);
  headers.append('Call-ID', request.headers.get('call-id') ?? '');
  headers.append('CSeq', request.headers.get('cseq') ?? '');
  for (const [name, value] of options.headers ?? []) headers.append(name, value);
  return { kind: 'response', status, reason: options.reason ?? REASONS[status] ?? 'Unknown', headers, body: options.body ?? Buffer.alloc(0) };
}

/**
 * The best answer to bytes that did not parse: a 400 when the start line is a request and the headers a
 * response needs can be read line by line; undefined otherwise (the bytes are dropped, RFC 3261 16.3).
 */
export function badRequestForRaw(data: Buffer, reason: string): Buffer | undefined {
  const text = data.subarray(0, 8192).toString('latin1');
  const lines = text.split(/\r?\n/);
  if (!/^[A-Za-z]+ \S+ SIP\/2\.0$/.test(lines[0] ?? '')) return undefined;
  if (/^ACK /i.test(lines[0]!)) return undefined;
  const wanted = ['via', 'v', 'from', 'f', 'to', 't', 'call-id', 'i', 'cseq'];
  const copied: string[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') break;
    const name = line.slice(0, line.indexOf(':')).trim().toLowerCase();
    if (wanted.includes(name)) copied.push(line);
  }
  if (!copied.some((line) => /^(via|v)\s*:/i.test(line))) return undefined;
  const safeReason = reason.replace(/[\r\n]/g, ' ').slice(0, 100);
  return Buffer.from(
    ['SIP/2.0 400 Bad Request', ...copied, `Warning: 399 palaver "${safeReason.replace(/"/g, "'")}"`, 'Content-Length: 0', '', ''].join('\r\n'),
  );
}
