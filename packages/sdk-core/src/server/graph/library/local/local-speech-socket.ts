import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AudioFrame } from '../../../engines/media/index.js';
import { LinearResampler } from '../../../engines/speech/index.js';
import { importOptional } from '../../../kernel/optional-package.js';
import { outboundGuard, urlRefusal } from '../../../kernel/outbound/index.js';
import {
  LOCAL_SPEECH_CHUNK_BYTES,
  LOCAL_SPEECH_SAMPLE_RATE,
  LocalSpeechResponse,
  type LocalSpeechEvent,
  type LocalSpeechRequest,
} from './local-speech-protocol.js';
import { LOCAL_SERVER_POLICY } from './local-server.js';

/** The engine waits this long before connecting again after a lost connection. */
const RECONNECT_MS = 1000;
const CHUNK_SAMPLES = LOCAL_SPEECH_CHUNK_BYTES / 2;
/** Audio kept while the connection opens (10 s), sent once it is open. */
const BACKLOG_CHUNKS = 100;

export interface LocalSpeechSocketOptions {
  /** The server's `http(s)://host:port/` (the socket is its `ws(s)` form). */
  url: URL;
  mode: 'stt' | 'lipsync';
  events: (event: LocalSpeechEvent) => void;
  /** The connection failed or was lost (it is tried again after a second). */
  failed: (message: string) => void;
  logger: Logger;
}

function firstChannel(frame: AudioFrame): Int16Array {
  if (frame.channels === 1) return frame.samples;
  const mono = new Int16Array(Math.floor(frame.samples.length / frame.channels));
  for (let index = 0; index < mono.length; index += 1) mono[index] = frame.samples[index * frame.channels]!;
  return mono;
}

/**
 * A session with the engine's local speech server (see `local-speech-protocol.ts`): audio pushed as it comes is
 * resampled to 16 kHz and sent in 100 ms pieces (the last 10 s kept while the connection opens); the server's events
 * are handed on. Connected through the outbound guard (the operator's local host: loopback and private networks
 * allowed, link-local refused); a lost connection is tried again after a second with a new session, as the engine
 * does. `sent(from, to)` gives the 16 kHz audio sent (the last 3 minutes), for clips.
 */
export class LocalSpeechSocket {
  private socket: import('ws').WebSocket | undefined;
  private sessionId = '';
  private resampler: LinearResampler | undefined;
  private pending: Int16Array = new Int16Array(0);
  private backlog: Int16Array[] = [];
  private readonly history: Int16Array[] = [];
  private historyStart = 0;
  private historySamples = 0;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  /** A failure was told since the last open connection (an outage is told once, not every second). */
  private told = false;

  constructor(private readonly options: LocalSpeechSocketOptions) {
    void this.connect();
  }

  push(frame: AudioFrame): void {
    if (this.closed) return;
    if (this.resampler?.inputRate !== frame.sampleRate) this.resampler = new LinearResampler(frame.sampleRate, LOCAL_SPEECH_SAMPLE_RATE);
    const pcm = this.resampler.push(firstChannel(frame));
    const joined = new Int16Array(this.pending.length + pcm.length);
    joined.set(this.pending);
    joined.set(pcm, this.pending.length);
    let offset = 0;
    for (; offset + CHUNK_SAMPLES <= joined.length; offset += CHUNK_SAMPLES) this.sendAudio(joined.slice(offset, offset + CHUNK_SAMPLES));
    this.pending = joined.slice(offset);
  }

  /** The 16 kHz audio of this session's samples `[from, to)` that is still kept. */
  sent(from: number, to: number): Int16Array {
    const parts: Int16Array[] = [];
    let at = this.historyStart;
    for (const part of this.history) {
      const start = Math.max(from, at);
      const end = Math.min(to, at + part.length);
      if (end > start) parts.push(part.subarray(start - at, end - at));
      at += part.length;
    }
    const joined = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket?.readyState === 1) this.send({ type: 'end_session' });
    this.socket?.close();
  }

  private sendAudio(pcm: Int16Array): void {
    if (this.socket?.readyState !== 1) {
      this.backlog.push(pcm);
      if (this.backlog.length > BACKLOG_CHUNKS) this.backlog.shift();
      return;
    }
    this.remember(pcm);
    this.send({ type: 'audio', b64_data: Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64') });
  }

  private remember(pcm: Int16Array): void {
    this.history.push(pcm);
    this.historySamples += pcm.length;
    while (this.historySamples > 180 * LOCAL_SPEECH_SAMPLE_RATE) {
      const dropped = this.history.shift()!;
      this.historySamples -= dropped.length;
      this.historyStart += dropped.length;
    }
  }

  private send(payload: LocalSpeechRequest): void {
    this.socket?.send(JSON.stringify({ payload, session_id: this.sessionId }));
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { url, mode, logger } = this.options;
    const refused = urlRefusal(url);
    if (refused) return this.options.failed(refused.message);
    const { WebSocket } = await importOptional('ws', 'local speech servers (LocalSTT, LocalViseme)', () => import('ws'));
    if (this.closed) return;
    const socketUrl = new URL(url);
    socketUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(socketUrl, { agent: outboundGuard(LOCAL_SERVER_POLICY).agentFor(url), perMessageDeflate: false });
    this.socket = socket;
    this.sessionId = randomUUID();
    this.history.length = 0;
    this.historySamples = 0;
    this.historyStart = 0;
    this.pending = new Int16Array(0);
    socket.on('open', () => {
      this.told = false;
      this.send({ type: 'start_session', sample_rate: LOCAL_SPEECH_SAMPLE_RATE, stt_enabled: mode === 'stt', lipsync_enabled: mode === 'lipsync' });
      const waiting = this.backlog;
      this.backlog = [];
      for (const pcm of waiting) this.sendAudio(pcm);
    });
    socket.on('message', (data, binary) => {
      if (binary) return;
      let parsed: ReturnType<typeof LocalSpeechResponse.safeParse>;
      try {
        // A text message arrives as one Buffer (ws does not fragment text for its listeners).
        parsed = LocalSpeechResponse.safeParse(JSON.parse((data as Buffer).toString('utf8')));
      } catch {
        logger.warn('the local speech server sent a message that is not JSON');
        return;
      }
      if (!parsed.success) logger.warn({ issue: parsed.error.issues[0] }, 'the local speech server sent an unknown message');
      else if (parsed.data.payload.type === 'error') this.options.failed(`the local speech server: ${parsed.data.payload.message}`);
      else this.options.events(parsed.data.payload);
    });
    socket.on('error', (error) => {
      if (this.told || this.closed) return;
      this.told = true;
      this.options.failed(`the local speech server at ${url.host}: ${error.message}`);
    });
    socket.on('close', () => {
      if (this.socket !== socket || this.closed) return;
      this.socket = undefined;
      this.timer = setTimeout(() => void this.connect(), RECONNECT_MS);
      this.timer.unref();
    });
  }
}
