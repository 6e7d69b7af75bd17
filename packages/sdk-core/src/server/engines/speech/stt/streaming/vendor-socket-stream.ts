import { EventEmitter } from 'eventemitter3';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import { importOptional } from '../../../../kernel/optional-package.js';
import { LinearResampler } from '../../codecs/resample.js';
import { DEFAULT_RECONNECT, backoffDelay, type ReconnectPolicy } from './reconnect-policy.js';
import { StreamingSttError, type StreamingSttEvents, type StreamingSttMeter, type StreamingSttOptions, type StreamingSttStream } from './streaming-stt.js';

/** How a vendor stream connects, buffers and closes; every field has a default in the engines. */
export interface VendorSocketSettings {
  provider: string;
  model: string;
  /** The vendor's name in error messages (`Deepgram`, `OpenAI realtime`). */
  vendor: string;
  vendorSampleRate: number;
  reconnect: ReconnectPolicy;
  /** Audio kept while disconnected; older audio is dropped first. */
  maxBufferedSeconds: number;
  /** Send the vendor's keepalive after this long without audio. */
  keepAliveMs: number;
  /** How long `close()` waits for the vendor's last results. */
  closeTimeoutMs: number;
  /** Handshake timeout per connection attempt. */
  connectTimeoutMs: number;
  /** Engine-wide metering (e.g. the server's metrics), called once per stream. */
  meter?: StreamingSttMeter | undefined;
}

/** What an engine's options may set of its sockets; unset fields take the vendor's defaults. */
export interface VendorSocketOptions {
  reconnect?: Partial<ReconnectPolicy> | undefined;
  maxBufferedSeconds?: number | undefined;
  /** The vendor's keepalive goes out after this long without audio. */
  keepAliveMs?: number | undefined;
  closeTimeoutMs?: number | undefined;
  connectTimeoutMs?: number | undefined;
  /** Called once per stream with the seconds sent. */
  meter?: StreamingSttMeter | undefined;
}

/** A vendor's identity and its own defaults for the socket settings an engine's options leave unset. */
export interface VendorSocketDefaults {
  provider: string;
  model: string;
  vendor: string;
  vendorSampleRate: number;
  keepAliveMs: number;
  closeTimeoutMs: number;
}

/** The settings of one vendor stream: the engine's options over the vendor's defaults. */
export function vendorSocketSettings(defaults: VendorSocketDefaults, options: VendorSocketOptions): VendorSocketSettings {
  return {
    provider: defaults.provider,
    model: defaults.model,
    vendor: defaults.vendor,
    vendorSampleRate: defaults.vendorSampleRate,
    reconnect: { ...DEFAULT_RECONNECT, ...options.reconnect },
    maxBufferedSeconds: options.maxBufferedSeconds ?? 10,
    keepAliveMs: options.keepAliveMs ?? defaults.keepAliveMs,
    closeTimeoutMs: options.closeTimeoutMs ?? defaults.closeTimeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    meter: options.meter,
  };
}

/** The streams an engine has open, aborted together when the engine closes. */
export class OpenVendorStreams {
  private readonly streams = new Set<VendorSocketStream>();

  /** Keeps `stream` until it closes; answers it. */
  track<T extends VendorSocketStream>(stream: T): T {
    this.streams.add(stream);
    stream.once('closed', () => this.streams.delete(stream));
    return stream;
  }

  abortAll(): void {
    for (const stream of this.streams) stream.abort();
    this.streams.clear();
  }
}

type State = 'connecting' | 'open' | 'waiting' | 'closing' | 'closed';

/** Largest handshake refusal body read for the error message. */
const REFUSAL_BODY_BYTES = 2048;
/** A connection open this long counts as recovered: the next loss starts the backoff again. */
const STABLE_CONNECTION_MS = 1000;

/**
 * The websocket plumbing both vendor adapters share: one connection at a time (`ws`, loaded on first use),
 * audio resampled to the vendor's rate and buffered (bounded) while connecting, bounded reconnects with
 * exponential backoff after an unexpected close, keepalive while no audio flows, a graceful close that waits
 * (bounded) for the vendor's last results, and the audio seconds sent metered once at the end.
 * Vendor timestamps restart on each connection; {@link timelineOffset} maps them onto the stream's timeline
 * (seconds of audio pushed).
 */
export abstract class VendorSocketStream extends EventEmitter<StreamingSttEvents> implements StreamingSttStream {
  readonly inputSampleRate: number;
  readonly vendorSampleRate: number;
  /** Seconds of pushed audio before the first sample sent on the current connection. */
  protected timelineOffset = 0;
  private socket: WebSocket | undefined;
  private state: State = 'connecting';
  private readonly resampler: LinearResampler;
  private pending: Int16Array[] = [];
  private pendingSamples = 0;
  private pushedSamples = 0;
  private sentSamples = 0;
  private lastSentAt = 0;
  private attempt = 0;
  private openedAt = 0;
  private closeRequested = false;
  private keepAliveTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly ended: Promise<void>;
  private resolveEnded!: () => void;

  constructor(
    protected readonly settings: VendorSocketSettings,
    protected readonly options: StreamingSttOptions,
  ) {
    super();
    this.inputSampleRate = options.sampleRate;
    this.vendorSampleRate = settings.vendorSampleRate;
    this.resampler = new LinearResampler(options.sampleRate, settings.vendorSampleRate);
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    if (options.signal?.aborted) queueMicrotask(() => this.abort());
    else options.signal?.addEventListener('abort', () => this.abort(), { once: true });
    queueMicrotask(() => void this.connect());
  }

  get audioSeconds(): number {
    return this.sentSamples / this.vendorSampleRate;
  }

  /** The vendor's URL with its query. */
  protected abstract url(): string;
  protected abstract headers(): Record<string, string>;
  /** Called on each open, before buffered audio is sent (session configuration). */
  protected abstract opened(): void;
  protected abstract audioMessage(pcm: Int16Array): string | Uint8Array;
  /** A text message from the vendor. */
  protected abstract received(text: string): void;
  protected abstract sendKeepAlive(): void;
  protected abstract requestFinalize(): void;
  /** Starts the vendor's graceful close; the vendor closes the socket, or the adapter calls {@link closeSocket}. */
  protected abstract beginClose(): void;
  /** A fatal error for a vendor close that a reconnect cannot fix (bad key, undecodable audio); else undefined. */
  protected abstract fatalClose(code: number, reason: string): StreamingSttError | undefined;
  /** Forgets per-connection protocol state (a new connection starts a new vendor session). */
  protected abstract resetConnection(): void;

  push(pcm: Int16Array): void {
    if (this.state === 'closed' || this.state === 'closing' || this.closeRequested || pcm.length === 0) return;
    const audio = this.resampler.push(pcm);
    if (audio.length === 0) return;
    this.pushedSamples += audio.length;
    if (this.state === 'open' && this.socket?.readyState === 1) {
      this.sendAudio(audio);
      return;
    }
    this.pending.push(audio.slice());
    this.pendingSamples += audio.length;
    const limit = this.settings.maxBufferedSeconds * this.vendorSampleRate;
    while (this.pendingSamples > limit && this.pending.length > 1) this.pendingSamples -= this.pending.shift()!.length;
  }

  finalize(): void {
    if (this.state === 'open') this.requestFinalize();
  }

  close(): Promise<void> {
    if (this.state === 'closed') return this.ended;
    if (this.closeRequested) return this.ended;
    this.closeRequested = true;
    this.closeTimer = setTimeout(() => this.end(), this.settings.closeTimeoutMs);
    if (this.state === 'open') this.startClosing();
    else if (this.state === 'waiting') this.end();
    // 'connecting': closes once open (the buffered audio is sent first) or when the attempt fails.
    return this.ended;
  }

  abort(): void {
    this.end();
  }

  /** Sends a control message on the open connection (dropped while disconnected). */
  protected send(message: string | Uint8Array): void {
    if (this.socket?.readyState === 1) this.socket.send(message);
  }

  protected ping(): void {
    if (this.socket?.readyState === 1) this.socket.ping();
  }

  /** Ends the connection normally after the vendor's last results (or at once when nothing is pending). */
  protected closeSocket(): void {
    if (this.state !== 'closing') return;
    this.socket?.close(1000);
  }

  protected get closing(): boolean {
    return this.state === 'closing';
  }

  /** Audio position of the latest sample sent, on the stream's timeline. */
  protected get streamPosition(): number {
    return (this.pushedSamples - this.pendingSamples) / this.vendorSampleRate;
  }

  /** A vendor error that leaves the stream running (a fatal one ends it, {@link end}). */
  protected report(error: StreamingSttError): void {
    if (error.fatal) this.end(error);
    else this.emit('error', error);
  }

  private startClosing(): void {
    this.state = 'closing';
    this.beginClose();
  }

  private sendAudio(audio: Int16Array): void {
    this.socket!.send(this.audioMessage(audio));
    this.sentSamples += audio.length;
    this.lastSentAt = Date.now();
  }

  private async connect(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'connecting';
    this.resetConnection();
    let WebSocketClass: typeof import('ws').WebSocket;
    try {
      ({ WebSocket: WebSocketClass } = await importOptional('ws', `streaming speech-to-text (${this.settings.provider})`, () => import('ws')));
    } catch (error) {
      this.end(new StreamingSttError(error instanceof Error ? error.message : String(error), 'unreachable', true, { cause: error }));
      return;
    }
    if (this.state !== 'connecting') return;
    const socket = new WebSocketClass(this.url(), { headers: this.headers(), handshakeTimeout: this.settings.connectTimeoutMs, perMessageDeflate: false });
    this.socket = socket;
    let settled = false;
    let wasOpen = false;
    let lastError: Error | undefined;
    const lost = (error: StreamingSttError) => {
      if (settled) return;
      settled = true;
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      if (this.socket === socket) this.socket = undefined;
      this.connectionLost(error);
    };
    socket.on('unexpected-response', (request: ClientRequest, response: IncomingMessage) => {
      void readRefusal(response).then((body) => {
        request.destroy();
        lost(this.refusal(response.statusCode ?? 0, body));
      });
    });
    socket.on('open', () => {
      if (this.state === 'closed') {
        socket.terminate();
        return;
      }
      wasOpen = true;
      this.connected();
    });
    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary || this.state === 'closed') return;
      this.received(rawText(data));
    });
    socket.on('error', (error: Error) => {
      lastError = error;
      if (!wasOpen)
        lost(
          new StreamingSttError(`could not connect to ${this.settings.vendor} at ${redactedUrl(this.url())}: ${error.message}`, 'unreachable', false, {
            cause: error,
          }),
        );
    });
    socket.on('close', (code: number, reasonBytes: Buffer) => {
      const reason = reasonBytes.toString();
      const fatal = this.fatalClose(code, reason);
      const detail = `${this.settings.vendor} closed the connection (${code}${reason ? ` ${reason}` : ''})${lastError ? `: ${lastError.message}` : ''}`;
      lost(fatal ?? new StreamingSttError(detail, 'vendor', false));
    });
  }

  private connected(): void {
    const reconnected = this.attempt;
    this.state = 'open';
    this.openedAt = Date.now();
    this.timelineOffset = (this.pushedSamples - this.pendingSamples) / this.vendorSampleRate;
    this.opened();
    const buffered = this.pending;
    this.pending = [];
    this.pendingSamples = 0;
    for (const audio of buffered) this.sendAudio(audio);
    this.lastSentAt = Date.now();
    const every = Math.max(50, Math.floor(this.settings.keepAliveMs / 2));
    this.keepAliveTimer = setInterval(() => {
      if (this.state === 'open' && Date.now() - this.lastSentAt >= this.settings.keepAliveMs) {
        this.sendKeepAlive();
        this.lastSentAt = Date.now();
      }
    }, every);
    this.keepAliveTimer.unref?.();
    if (reconnected > 0) this.emit('reconnected', { attempt: reconnected });
    if (this.closeRequested) this.startClosing();
  }

  private connectionLost(error: StreamingSttError): void {
    clearInterval(this.keepAliveTimer);
    if (this.state === 'closed') return;
    if (this.state === 'closing' || this.closeRequested) {
      this.end(error.fatal ? error : undefined);
      return;
    }
    if (error.fatal) {
      this.end(error);
      return;
    }
    if (this.openedAt > 0 && Date.now() - this.openedAt >= STABLE_CONNECTION_MS) this.attempt = 0;
    this.openedAt = 0;
    this.attempt += 1;
    if (this.attempt > this.settings.reconnect.attempts) {
      const gaveUp = `${error.message}; gave up after ${this.settings.reconnect.attempts} reconnect attempt(s)`;
      this.end(new StreamingSttError(gaveUp, error.code === 'vendor' ? 'vendor' : 'unreachable', true, { cause: error }));
      return;
    }
    const delayMs = backoffDelay(this.settings.reconnect, this.attempt);
    this.state = 'waiting';
    this.emit('reconnecting', { attempt: this.attempt, delayMs, cause: error });
    this.retryTimer = setTimeout(() => void this.connect(), delayMs);
  }

  /** A refused handshake: bad credentials and bad requests are fatal, overload and server errors are retried. */
  private refusal(status: number, body: string): StreamingSttError {
    const detail = `${this.settings.vendor} refused the connection with HTTP ${status}${body ? `: ${body}` : ''}`;
    if (status === 401 || status === 403) return new StreamingSttError(`${detail} (check the API key)`, 'unauthorized', true);
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) return new StreamingSttError(detail, 'rejected', true);
    return new StreamingSttError(detail, 'vendor', false);
  }

  /** Ends the stream once: stops timers, drops the socket, reports a fatal error, meters the audio, `closed`. */
  protected end(error?: StreamingSttError): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearInterval(this.keepAliveTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.closeTimer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
    }
    this.pending = [];
    this.pendingSamples = 0;
    if (error) this.emit('error', error);
    const usage = { provider: this.settings.provider, model: this.settings.model, audioSeconds: this.audioSeconds };
    for (const meter of [this.settings.meter, this.options.meter]) {
      try {
        meter?.(usage);
      } catch {
        // A failing meter must not keep the stream from closing.
      }
    }
    this.emit('closed', { audioSeconds: usage.audioSeconds, ...(error ? { error } : {}) });
    this.resolveEnded();
  }
}

async function readRefusal(response: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const part of response) {
      parts.push(part as Buffer);
      size += (part as Buffer).length;
      if (size >= REFUSAL_BODY_BYTES) break;
    }
  } catch {
    // The body is only for the message.
  }
  return Buffer.concat(parts).toString('utf8').slice(0, REFUSAL_BODY_BYTES).trim();
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** The URL without its query (it may carry options, never shown with credentials). */
function redactedUrl(url: string): string {
  return url.split('?')[0]!;
}
