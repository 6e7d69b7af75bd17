import { EventEmitter } from 'eventemitter3';
import WebSocket from 'isomorphic-ws';
import { TtsServiceMessage, type TtsClientMessage } from '../contract/tts-socket.js';
import { TTS_SOCKET_PATH } from '../contract/wire.js';
import { ConnectionError } from '../errors/transport-errors.js';
import { base64ToPcm16 } from './pcm-base64.js';
import { TtsStreamError } from './tts-stream-error.js';
import { STREAM_BACKLOG_HIGH_WATER, TtsStream, type TtsStreamChannel } from './tts-stream.js';

/** `isomorphic-ws` in Node is `ws`, whose constructor takes options with headers. */
type NodeWebSocket = new (url: string, options: { headers: Record<string, string> }) => WebSocket;

export interface TtsClientOptions {
  /** The platform's base URL (`http(s)://` or `ws(s)://`). */
  baseUrl: string;
  /** Server-side only: never ship an API key to a browser. */
  apiKey?: string;
  /** A usage token minted by your backend for the signed-in user (the browser way). */
  usageToken?: string;
  /** With an API key: the human the usage is recorded for (`x-human-id`; Node only). */
  humanId?: string;
  /**
   * How credentials travel: `header` (Node default; `x-api-key`/`Authorization`) or `query` (browser
   * default, since browsers cannot set websocket headers: `api_key=`/`token=`).
   */
  credentials?: 'header' | 'query';
}

export interface TtsStreamOptions {
  /** Voice id from the catalog (`flite-slt`, `espeak-de`, a cloned voice). */
  voice: string;
  /** Session id on the socket; generated when absent. Must not collide with an open stream's. */
  session?: string;
  signal?: AbortSignal;
}

interface ProcessLike {
  versions?: { node?: string };
}

function runningInNode(): boolean {
  return typeof (globalThis as { process?: ProcessLike }).process?.versions?.node === 'string';
}

/** Socket close codes 4000 + HTTP status are the service's authentication refusals. */
function closeError(code: number, reason: string): ConnectionError {
  const detail = reason ? `: ${reason}` : '';
  if (code === 4401 || code === 4403) return new ConnectionError('unauthorized', `the TTS socket refused the credentials (${code})${detail}`);
  if (code >= 4000 && code < 5000) return new ConnectionError('protocol', `the TTS socket closed (${code})${detail}`);
  return new ConnectionError('closed', `the TTS socket closed (${code})${detail}`);
}

let sessionCounter = 0;

/**
 * A TTS socket client for browsers and Node: one websocket, opened on the first stream, shared by every
 * stream (each is a `session` on it), closed by {@link TtsClient.close}. Incoming messages are parsed with
 * the contract's zod/mini schemas. In Node, a stream whose unread audio piles up pauses the socket, so the
 * service stops synthesizing until the reader catches up.
 *
 * @example
 * const tts = createTtsClient({ baseUrl: 'http://127.0.0.1:8080', usageToken });
 * const stream = tts.stream({ voice: 'flite-slt' });
 * stream.push('Hello there. How are you today?').end();
 * for await (const chunk of stream) play(chunk.pcm, chunk.sampleRate);
 * tts.close();
 */
export interface TtsClientEvents {
  /** An `error` the service attributed to no session (`session: "*"`, e.g. an unparseable message). */
  error: (error: TtsStreamError) => void;
}

export class TtsClient extends EventEmitter<TtsClientEvents> {
  private socket: WebSocket | undefined;
  private opened: Promise<WebSocket> | undefined;
  private readonly streams = new Map<string, TtsStream>();
  private paused = false;
  private readonly prefix = Math.random().toString(36).slice(2, 8);

  constructor(private readonly options: TtsClientOptions) {
    super();
    if (!options.apiKey && !options.usageToken) throw new TypeError('createTtsClient needs apiKey or usageToken');
  }

  /** Streams currently open on the socket. */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Opens a synthesis stream (and the socket, if needed). */
  stream(options: TtsStreamOptions): TtsStream {
    const session = options.session ?? `${this.prefix}-${++sessionCounter}`;
    if (this.streams.has(session)) throw new Error(`a stream with session '${session}' is already open`);
    const stream = new TtsStream(session, options.voice, this.channel, options.signal);
    this.streams.set(session, stream);
    this.send({ type: 'start_session', session, payload: { voice: options.voice } });
    return stream;
  }

  /** Closes the socket; open streams fail with a `closed` {@link ConnectionError}. */
  close(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.opened = undefined;
    this.failAll(new ConnectionError('closed', 'the TTS client was closed'));
    socket?.close(1000, 'client closed');
  }

  private readonly channel: TtsStreamChannel = {
    sendText: (session, text) => this.send({ type: 'push_text', session, payload: { text } }),
    sendEnd: (session) => this.send({ type: 'eos', session, payload: {} }),
    release: (session) => {
      this.streams.delete(session);
      this.updateFlow();
    },
    backlogChanged: () => this.updateFlow(),
  };

  private url(): string {
    const url = new URL(TTS_SOCKET_PATH, this.options.baseUrl.replace(/\/+$/, '') + '/');
    url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
    if (this.credentialsIn() === 'query') {
      if (this.options.usageToken) url.searchParams.set('token', this.options.usageToken);
      else if (this.options.apiKey) url.searchParams.set('api_key', this.options.apiKey);
    }
    return url.href;
  }

  private credentialsIn(): 'header' | 'query' {
    return this.options.credentials ?? (runningInNode() ? 'header' : 'query');
  }

  private connect(): Promise<WebSocket> {
    if (this.opened) return this.opened;
    const headers: Record<string, string> = {};
    if (this.credentialsIn() === 'header') {
      if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
      else if (this.options.usageToken) headers.authorization = `Bearer ${this.options.usageToken}`;
      if (this.options.humanId) headers['x-human-id'] = this.options.humanId;
    }
    // Browsers' WebSocket takes protocols as its second argument: options go to Node's `ws` only (headers are
    // only set when running in Node, or when the caller asked for them).
    const socket = Object.keys(headers).length > 0 ? new (WebSocket as unknown as NodeWebSocket)(this.url(), { headers }) : new WebSocket(this.url());
    this.socket = socket;
    const opened = new Promise<WebSocket>((resolve, reject) => {
      socket.onopen = () => resolve(socket);
      socket.onerror = (event) => {
        const error = new ConnectionError('network', `the TTS socket failed: ${(event as { message?: string }).message ?? 'connection error'}`);
        reject(error);
        if (this.socket === socket) this.dropSocket(error);
      };
      socket.onclose = (event) => {
        const error = closeError(event.code, event.reason);
        reject(error);
        if (this.socket === socket) this.dropSocket(error);
      };
      socket.onmessage = (event) => this.onMessage(event.data);
    });
    opened.catch(() => undefined);
    this.opened = opened;
    return opened;
  }

  private dropSocket(error: ConnectionError): void {
    this.socket = undefined;
    this.opened = undefined;
    this.paused = false;
    this.failAll(error);
  }

  private failAll(error: ConnectionError): void {
    for (const stream of [...this.streams.values()]) stream.fail(error);
    this.streams.clear();
  }

  /** Sends in order: messages queue behind the socket's opening. */
  private send(message: TtsClientMessage): void {
    const text = JSON.stringify(message);
    const socket = this.socket;
    if (socket && socket.readyState === WebSocket.OPEN) return socket.send(text);
    void this.connect().then(
      (open) => open.send(text),
      () => undefined, // the streams were failed by the socket's close/error handler
    );
  }

  private onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const result = TtsServiceMessage.safeParse(parsed);
    if (!result.success) return;
    const message = result.data;
    const stream = this.streams.get(message.session);
    if (!stream) {
      if (message.type === 'error' && message.session === '*') this.emit('error', new TtsStreamError('*', message.payload.message));
      return;
    }
    if (message.type === 'audio') {
      stream.deliverAudio({ pcm: base64ToPcm16(message.payload.audio), sampleRate: message.payload.sample_rate, channels: message.payload.channels });
    } else if (message.type === 'final') stream.deliverFinal();
    else stream.fail(new TtsStreamError(message.session, message.payload.message));
  }

  /** Node's `ws` can stop reading the socket: TCP backpressure then pauses synthesis on the service. */
  private updateFlow(): void {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed under tsconfig.browser.json, where the socket is the DOM's WebSocket
    const socket = this.socket as (WebSocket & { pause?: () => void; resume?: () => void }) | undefined;
    if (!socket?.pause || !socket.resume) return;
    const congested = [...this.streams.values()].some((stream) => stream.backlog >= STREAM_BACKLOG_HIGH_WATER);
    if (congested && !this.paused) {
      this.paused = true;
      socket.pause();
    } else if (!congested && this.paused) {
      this.paused = false;
      socket.resume();
    }
  }
}

/**
 * Creates a TTS socket client (`@palaver/sdk-core/tts`).
 *
 * @example
 * const tts = createTtsClient({ baseUrl: 'https://palaver.example.com', usageToken });
 * const stream = tts.stream({ voice: 'flite-slt' });
 * stream.on('audio', (chunk) => play(chunk)).on('final', () => tts.close());
 * stream.push('Hi!').end();
 */
export function createTtsClient(options: TtsClientOptions): TtsClient {
  return new TtsClient(options);
}
