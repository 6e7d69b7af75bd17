import { SIP_CALL_STATUS_ATTRIBUTE } from '../../../contract/wire.js';
import type { Logger } from 'pino';
import { TokenBucket, type AgentTransport } from '../media/index.js';
import type { SipDirectory } from '../../kernel/ports/sip-directory.js';
import { SipCallFailed, type OutboundCallRequest, type PlacedCall, type SipCalls, type TransferRequest } from '../../kernel/ports/sip-calls.js';
import { DigestChallenger } from './auth/digest.js';
import { handleInDialogRequest, type TransferWaiters } from './dialog/in-dialog-requests.js';
import type { SipCall } from './dialog/sip-call.js';
import { DEFAULT_SESSION_TIMER, type SessionTimerSettings } from './dialog/session-timer.js';
import type { EndpointContext } from './endpoint-context.js';
import { PIN_PROMPTS } from './inbound/pin-prompts.js';
import type { PromptSpeaker } from './prompts/speech-prompts.js';
import { ALLOW, handleInboundInvite, newPendingInvite, type PendingInvite } from './inbound/inbound-invite.js';
import { parseNameAddress } from './message/sip-address.js';
import type { SipMessage } from './message/sip-message.js';
import { badRequestForRaw, createResponse } from './message/sip-response.js';
import { placeOutboundCall } from './outbound/outbound-call.js';
import { MediaClock } from './rtp/media-clock.js';
import { ClientTransactions } from './transaction/client-transactions.js';
import { ServerTransactions, type ServerTransaction } from './transaction/server-transactions.js';
import { SipTransport, type SipPeer, type SipTlsOptions } from './transport/sip-transport.js';

export interface SipEndpointOptions {
  /** Address to listen on (UDP and TCP) and to bind RTP to. */
  host: string;
  /** SIP port (5060 by convention; 0 picks a free one). */
  port: number;
  /** Address written into Contact, Via and SDP; default `host`. */
  advertisedAddress?: string;
  directory: SipDirectory;
  transport: AgentTransport;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** Calls at once; more INVITEs get 503 (default 200). */
  maxCalls?: number;
  /** New INVITEs per second from one source address before 503 (default 20, bursts of 40). */
  invitesPerSecond?: number;
  /** A call that was in a room ended (hung up either way, transferred or failed): its room and participant. */
  onCallEnded?: (call: { roomName: string; participantIdentity: string }) => void;
  realm?: string;
  /** Session timers (RFC 4028): the interval asked for and the smallest accepted (default 1800 s and 90 s). */
  sessionTimer?: Partial<SessionTimerSettings>;
  /** Speaks the PIN prompts (`speechPrompts` over the platform's TTS); absent = the PIN is keyed in silence. */
  prompts?: PromptSpeaker;
  /** SIP over TLS on a second port (5061 by convention), with this certificate and key; absent = UDP and TCP only. */
  tls?: SipTlsOptions;
}

/** The `Require` options a caller may ask for (anything else gets 420). */
const SUPPORTED_OPTIONS = new Set(['timer', '100rel']);
/** How long a transfer waits for the NOTIFY that reports the transferee answered. */
const TRANSFER_TIMEOUT_MS = 30_000;
const SOURCE_BUCKETS_MAX = 10_000;
/** How long a shutdown waits for the answers to its BYEs. */
const SHUTDOWN_BYE_WAIT_MS = 2000;

/**
 * The platform's SIP endpoint (RFC 3261 user agent for trunks): answers calls a {@link SipDirectory} routes to
 * rooms, and places and transfers calls for the SIP service ({@link SipCalls}).
 *
 * @example
 * const endpoint = new SipEndpoint({ host: '127.0.0.1', port: 5060, directory, transport, logger });
 * await endpoint.start();
 */
export class SipEndpoint implements SipCalls {
  private readonly sip: SipTransport;
  private readonly server: ServerTransactions;
  private readonly context: EndpointContext;
  private readonly pending = new Map<string, PendingInvite>();
  private readonly inviteTransactions = new Map<string, ServerTransaction>();
  private readonly transfers: TransferWaiters = new Map();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly maxCalls: number;
  private readonly invitesPerSecond: number;

  constructor(private readonly options: SipEndpointOptions) {
    this.maxCalls = options.maxCalls ?? 200;
    this.invitesPerSecond = options.invitesPerSecond ?? 20;
    this.sip = new SipTransport({
      host: options.host,
      port: options.port,
      onMessage: (message, peer) => this.receive(message, peer),
      onMalformed: (data, peer, error) => {
        options.logger.debug({ peer, reason: error.message }, 'Malformed SIP message');
        const response = badRequestForRaw(data, error.message);
        if (response) this.sip.sendRaw(response, peer);
      },
      onError: (error) => options.logger.warn({ err: error }, 'SIP transport error'),
      onConnectionFailed: (peer, error) => {
        options.logger.info({ peer, reason: error.message }, 'SIP connection failed');
        this.context.client.transportFailed(peer, error.message);
      },
      ...(options.tls ? { tls: options.tls } : {}),
    });
    this.server = new ServerTransactions((message, peer) => this.sip.send(message, peer));
    const client = new ClientTransactions(
      (message, peer) => this.sip.send(message, peer),
      (peer) => `SIP/2.0/${peer.protocol.toUpperCase()} ${this.sentBy(peer.protocol)}`,
    );
    const calls = new Map<string, SipCall>();
    this.context = {
      directory: options.directory,
      transport: options.transport,
      logger: options.logger,
      digest: new DigestChallenger(options.realm ?? 'palaver'),
      clock: new MediaClock(),
      client,
      advertisedAddress: this.advertised,
      bindAddress: options.host,
      port: options.port,
      calls,
      sessionTimer: { ...DEFAULT_SESSION_TIMER, ...options.sessionTimer },
      prompts: options.prompts,
      contact: (protocol, secure) => contactUri(this.sentBy(protocol), protocol, secure),
      sentBy: (protocol) => this.sentBy(protocol),
      sendStateless: (request, peer) => this.sip.send(request, peer),
      callEnded: (call) => {
        if (calls.get(call.callId) === call) calls.delete(call.callId);
        this.inviteTransactions.delete(call.callId);
        this.transfers.get(call.callId)?.(487);
        if (call.bridge) options.onCallEnded?.({ roomName: call.bridge.connection.room, participantIdentity: call.bridge.connection.identity });
      },
    };
  }

  get port(): number {
    return this.sip.port;
  }

  /** The SIP over TLS port (0 when TLS is off). */
  get tlsPort(): number {
    return this.sip.tlsPort;
  }

  /** Calls in progress (answered or being set up). */
  get activeCalls(): number {
    return this.context.calls.size;
  }

  calls(): SipCall[] {
    return [...this.context.calls.values()];
  }

  async start(): Promise<void> {
    await this.sip.listen();
    this.context.port = this.sip.port;
    this.options.logger.info(
      { port: this.sip.port, host: this.options.host, ...(this.options.tls ? { tlsPort: this.sip.tlsPort } : {}) },
      this.options.tls ? 'SIP endpoint listening (UDP, TCP and TLS)' : 'SIP endpoint listening (UDP and TCP)',
    );
    void this.warmPrompts();
  }

  /**
   * Synthesises the fixed prompts now, in the background, so the first caller asked for a PIN hears it at once
   * (instead of waiting for its synthesis after the answer). A failure is logged; the prompt is tried again when asked.
   */
  private async warmPrompts(): Promise<void> {
    const prompts = this.options.prompts;
    if (!prompts) return;
    for (const text of Object.values(PIN_PROMPTS)) {
      // One at a time: the start-up's other work keeps its CPU.
      await prompts(text).catch((error: unknown) => this.options.logger.warn({ err: error, prompt: text }, 'SIP prompt could not be synthesised ahead'));
    }
  }

  async close(): Promise<void> {
    // Every call hangs up (BYE); answers are awaited briefly, a phone that vanished does not hold the shutdown.
    const hungUp = Promise.all(this.calls().map((call) => call.hangUp('shutdown')));
    await Promise.race([hungUp, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_BYE_WAIT_MS).unref())]);
    this.context.clock.stop();
    this.server.close();
    this.context.client.close();
    await this.sip.close();
  }

  placeCall(request: OutboundCallRequest): Promise<PlacedCall> {
    if (this.context.calls.size >= this.maxCalls) return Promise.reject(new SipCallFailed(503, 'Too many calls'));
    return placeOutboundCall(this.context, request);
  }

  async transfer(request: TransferRequest): Promise<void> {
    const call = this.calls().find(
      (candidate) =>
        candidate.state === 'active' &&
        candidate.bridge?.connection.room === request.roomName &&
        candidate.bridge.connection.identity === request.participantIdentity,
    );
    if (!call) throw new SipCallFailed(481, 'No active call for this participant');
    const target = /^(sips?|tel):/i.test(request.transferTo) ? request.transferTo : `tel:${request.transferTo}`;
    const done = new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(408), TRANSFER_TIMEOUT_MS);
      this.transfers.set(call.callId, (status) => {
        clearTimeout(timer);
        this.transfers.delete(call.callId);
        resolve(status);
      });
    });
    const response = await call.sendRequest(
      call.dialog.request('REFER', {
        headers: [
          ['Refer-To', `<${target}>`],
          ['Referred-By', call.dialog.local.replace(/;tag=[^;>]*/, '')],
        ],
      }),
    );
    if (response.status < 200 || response.status >= 300) {
      this.transfers.delete(call.callId);
      throw new SipCallFailed(response.status, response.reason);
    }
    await call.bridge?.setAttributes({ [SIP_CALL_STATUS_ATTRIBUTE]: 'transferring' }).catch(() => undefined);
    const status = await done;
    if (status >= 200 && status < 300) {
      await call.hangUp('transferred');
      return;
    }
    await call.bridge?.setAttributes({ [SIP_CALL_STATUS_ATTRIBUTE]: 'active' }).catch(() => undefined);
    throw new SipCallFailed(status, 'The transfer target did not answer');
  }

  private get advertised(): string {
    return this.options.advertisedAddress ?? this.options.host;
  }

  private get hostPart(): string {
    return this.advertised.includes(':') ? `[${this.advertised}]` : this.advertised;
  }

  /** `host:port` of Via and Contact for messages sent over `protocol` (the TLS port for TLS). */
  private sentBy(protocol: SipPeer['protocol']): string {
    return `${this.hostPart}:${this.sip.portFor(protocol)}`;
  }

  private receive(message: SipMessage, peer: SipPeer): void {
    if (message.kind === 'response') {
      this.context.client.handle(message);
      return;
    }
    const existing = this.server.match(message);
    if (existing) {
      if (message.method === 'ACK') existing.acknowledge();
      else existing.retransmitted();
      return;
    }
    if (message.method === 'ACK') {
      // The ACK of a 2xx is its own transaction; it ends the 200 OK's retransmissions.
      (this.server.matchAck(message) ?? this.inviteTransactions.get(message.headers.get('call-id') ?? ''))?.acknowledge();
      return;
    }
    const transaction = this.server.begin(message, peer);
    this.route(transaction).catch((error: unknown) => {
      this.options.logger.error({ err: error, method: message.method }, 'SIP request failed');
      if (!transaction.finalSent) transaction.respond(createResponse(message, 500));
    });
  }

  private async route(transaction: ServerTransaction): Promise<void> {
    const request = transaction.request;
    const callId = request.headers.get('call-id')!;
    const toTag = parseNameAddress(request.headers.get('to')!).params['tag'];
    const call = this.context.calls.get(callId);
    if (request.method === 'CANCEL') return this.cancel(transaction);
    if (toTag) {
      if (!call || call.state === 'ended') return transaction.respond(createResponse(request, 481));
      if (request.method === 'INVITE') this.inviteTransactions.set(callId, transaction);
      return handleInDialogRequest(this.context, transaction, call, this.transfers);
    }
    switch (request.method) {
      case 'INVITE':
        return this.invite(transaction);
      case 'OPTIONS':
        return transaction.respond(
          createResponse(request, 200, {
            headers: [
              ['Allow', ALLOW],
              ['Accept', 'application/sdp'],
            ],
          }),
        );
      case 'BYE':
        return transaction.respond(createResponse(request, 481));
      case 'REFER':
      case 'NOTIFY':
      case 'SUBSCRIBE':
      case 'REGISTER':
      case 'MESSAGE':
      case 'INFO':
      case 'UPDATE':
      case 'PRACK':
        return transaction.respond(createResponse(request, 405, { headers: [['Allow', ALLOW]] }));
      default:
        return transaction.respond(createResponse(request, 501));
    }
  }

  private async invite(transaction: ServerTransaction): Promise<void> {
    const request = transaction.request;
    const callId = request.headers.get('call-id')!;
    if (this.pending.has(callId) || this.context.calls.has(callId)) {
      return transaction.respond(createResponse(request, 482, { reason: 'Loop Detected' }));
    }
    const required = request.headers.getAll('require').filter((option) => !SUPPORTED_OPTIONS.has(option.toLowerCase()));
    if (required.length > 0) return transaction.respond(createResponse(request, 420, { headers: [['Unsupported', required.join(', ')]] }));
    if (!this.bucket(transaction.peer.address).take() || this.context.calls.size + this.pending.size >= this.maxCalls) {
      return transaction.respond(createResponse(request, 503, { headers: [['Retry-After', '5']] }));
    }
    const pending = newPendingInvite(transaction);
    this.pending.set(callId, pending);
    try {
      await handleInboundInvite(this.context, transaction, pending);
    } finally {
      this.pending.delete(callId);
      if (this.context.calls.has(callId)) this.inviteTransactions.set(callId, transaction);
    }
  }

  private cancel(transaction: ServerTransaction): void {
    const request = transaction.request;
    const pending = this.pending.get(request.headers.get('call-id')!);
    if (!pending || pending.transaction.finalSent) return transaction.respond(createResponse(request, 481));
    transaction.respond(createResponse(request, 200, { toTag: pending.toTag }));
    pending.cancelled = true;
    pending.transaction.respond(createResponse(pending.transaction.request, 487, { toTag: pending.toTag }));
    const call = this.context.calls.get(request.headers.get('call-id')!);
    if (call) void call.remoteEnded();
  }

  private bucket(address: string): TokenBucket {
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= SOURCE_BUCKETS_MAX) this.buckets.clear();
      bucket = new TokenBucket(this.invitesPerSecond, this.invitesPerSecond * 2);
      this.buckets.set(address, bucket);
    }
    return bucket;
  }
}

/**
 * The endpoint's Contact for a dialog over `protocol`: `sips:` when the dialog is secure (its Request-URI was
 * `sips:`, RFC 3261 8.1.1.8), else `sip:` with the transport named (`;transport=tls` keeps in-dialog requests on TLS).
 */
function contactUri(sentBy: string, protocol: SipPeer['protocol'], secure = false): string {
  if (secure && protocol === 'tls') return `<sips:palaver@${sentBy}>`;
  return `<sip:palaver@${sentBy}${protocol === 'udp' ? '' : `;transport=${protocol}`}>`;
}
