import type { Logger } from 'pino';
import type { WebSocket, RawData } from 'ws';
import { TtsClientMessage, type TtsServiceMessage } from '../../../contract/tts-socket.js';
import type { Principal } from '../../kernel/principal.js';
import type { VoiceSynthesisService } from '../../domain/voices/voice-synthesis-service.js';
import { TextBacklogError } from './bounded-text-queue.js';
import type { TtsSocketLimits } from './tts-socket-limits.js';
import { TtsSocketSession } from './tts-socket-session.js';

/** The `session` of errors that belong to no session (unparseable messages). */
export const NO_SESSION = '*';

/** How often a congested socket is checked for room (`ws` has no drain event on the websocket itself). */
const WRITABLE_POLL_MS = 5;

/** A snapshot of one connection, for tests and diagnostics. */
export interface TtsConnectionStats {
  bufferedAmount: number;
  /** Highest `bufferedAmount` seen right after sending audio. */
  peakBufferedAmount: number;
  sessions: Array<{ id: string; queuedCharacters: number; sentSeconds: number; ended: boolean }>;
}

/**
 * One authenticated TTS socket: parses each message with the contract's zod/mini union, routes it to
 * its session (many sessions multiplexed by the client's `session` id), and answers problems with an
 * `error` message for that session while the socket stays open for the others.
 *
 * @example
 * const connection = new TtsSocketConnection(webSocket, principal, { synthesis, limits, logger });
 */
export class TtsSocketConnection {
  private readonly sessions = new Map<string, TtsSocketSession>();
  private peakBufferedAmount = 0;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly principal: Principal,
    private readonly context: { synthesis: VoiceSynthesisService; limits: TtsSocketLimits; logger: Logger },
  ) {
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => this.onClose());
    socket.on('error', (error) => context.logger.debug({ err: error }, 'tts socket error'));
  }

  stats(): TtsConnectionStats {
    return {
      bufferedAmount: this.socket.bufferedAmount,
      peakBufferedAmount: this.peakBufferedAmount,
      sessions: [...this.sessions.values()].map((session) => ({
        id: session.id,
        queuedCharacters: session.text.size,
        sentSeconds: session.sentSeconds,
        ended: session.ended,
      })),
    };
  }

  /** Closes the socket (server shutdown); sessions stop. */
  close(code = 1001, reason = 'server shutting down'): void {
    this.socket.close(code, reason);
    this.onClose();
  }

  private send(message: TtsServiceMessage): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(JSON.stringify(message));
    if (this.socket.bufferedAmount > this.peakBufferedAmount) this.peakBufferedAmount = this.socket.bufferedAmount;
  }

  private writable(signal: AbortSignal): Promise<void> {
    const ready = () => this.socket.bufferedAmount < this.context.limits.highWaterBytes;
    if (ready() && !signal.aborted) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (signal.aborted) {
          clearInterval(timer);
          reject(signal.reason as Error);
        } else if (ready()) {
          clearInterval(timer);
          resolve();
        }
      };
      const timer = setInterval(check, WRITABLE_POLL_MS);
      check();
    });
  }

  private error(session: string, message: string): void {
    this.send({ type: 'error', session, payload: { message } });
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (isBinary) return this.error(NO_SESSION, 'binary messages are not accepted: send JSON text messages');
    let parsed: unknown;
    try {
      parsed = JSON.parse((data as Buffer).toString()); // a Buffer: the socket's binaryType is ws's default, nodebuffer
    } catch {
      return this.error(NO_SESSION, 'malformed message: not JSON');
    }
    const result = TtsClientMessage.safeParse(parsed);
    if (!result.success) {
      const claimed = (parsed as { session?: unknown } | null)?.session;
      const session = typeof claimed === 'string' && claimed.length > 0 && claimed.length <= 200 ? claimed : NO_SESSION;
      const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ');
      return this.error(session, `malformed message: ${problems}`);
    }
    const message = result.data;
    const session = this.sessions.get(message.session);
    switch (message.type) {
      case 'start_session':
        return this.start(message.session, message.payload.voice);
      case 'push_text':
        if (!session) return this.error(message.session, `unknown session '${message.session}': send start_session first`);
        if (session.ended) return this.error(message.session, `session '${message.session}' already ended (eos was sent)`);
        if (message.payload.text.length > this.context.limits.maximumPushCharacters) {
          return session.fail(`push_text: text is longer than ${this.context.limits.maximumPushCharacters} characters`);
        }
        try {
          session.push(message.payload.text);
        } catch (error) {
          if (error instanceof TextBacklogError) session.fail(error.message);
          else throw error;
        }
        return;
      case 'eos':
        if (!session) return this.error(message.session, `unknown session '${message.session}'`);
        if (session.ended) return this.error(message.session, `session '${message.session}' already ended (eos was sent)`);
        return session.end();
    }
  }

  private start(id: string, voice: string): void {
    if (this.sessions.has(id)) return this.error(id, `session '${id}' already exists`);
    if (this.sessions.size >= this.context.limits.maximumSessions) {
      return this.error(id, `too many open sessions on this socket (at most ${this.context.limits.maximumSessions})`);
    }
    const session = new TtsSocketSession(id, voice, {
      principal: this.principal,
      synthesis: this.context.synthesis,
      limits: this.context.limits,
      transport: { send: (message) => this.send(message), writable: (signal) => this.writable(signal) },
      logger: this.context.logger,
    });
    this.sessions.set(id, session);
    void session.run().finally(() => {
      if (this.sessions.get(id) === session) this.sessions.delete(id);
    });
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const session of this.sessions.values()) session.abort('socket closed');
  }
}
