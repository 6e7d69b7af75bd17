import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import type { RealtimeServerEventBody } from '../../../contract/openai-realtime-events.js';
import { EPHEMERAL_KEY_PREFIX } from '../../../contract/openai-realtime.js';
import { OPENAI_KEY_SUBPROTOCOL } from '../../../contract/wire.js';
import { type RealtimeConversation, RealtimeRequestError, realtimeId } from '../../domain/openai-realtime/index.js';
import type { Services } from '../../domain/services.js';
import { WebSocketAcceptor } from '../../kernel/websocket-acceptor.js';
import type { Principal } from '../../kernel/principal.js';
import type { TurnDetectionOptions } from '../../voice/index.js';
import { authenticateUpgrade } from '../tts-socket/socket-authentication.js';
import { BETA_DIALECT, GA_DIALECT, type RealtimeDialect } from './beta-dialect.js';
import { parseClientEvent } from './realtime-event-parser.js';
import { RealtimeAdmission, asRequestError } from './realtime-admission.js';

/** Largest client event: an `input_audio_buffer.append` of ~60 s of 24 kHz PCM in base64. */
const MAXIMUM_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Close code of a refused session (an unknown model): 4000 + the HTTP status, as the TTS socket's. */
const BAD_REQUEST_CLOSE = 4400;

export interface RealtimeSocketOptions {
  /** The server's turn detection (tests tune it); the session's VAD settings apply over it. */
  turnDetection?: TurnDetectionOptions;
}

/**
 * OpenAI's Realtime API at `/v1/realtime` ({@link OPENAI_REALTIME_PATH}): authenticates the upgrade like an HTTP call
 * (`Authorization: Bearer` with an API key or usage token; browsers send it as the `openai-insecure-api-key.` subprotocol,
 * or `?token=`), reads `?model=` as the LLM to answer with, and serves one `RealtimeConversation` per socket over the
 * voice layer. Refused credentials close with 4401/4403 as the TTS socket does; an unknown model is an `error` event,
 * then a close with 4400. Every client event is parsed against the contract; a bad one is an `error` event.
 *
 * @example
 * const realtime = new RealtimeSocketServer(services);
 * upgrades.set(OPENAI_REALTIME_PATH, (request, socket, head) => realtime.handleUpgrade(request, socket, head));
 */
export class RealtimeSocketServer {
  private readonly sockets: WebSocketAcceptor;
  private readonly conversations = new Map<WebSocket, RealtimeConversation>();
  private readonly admission: RealtimeAdmission;

  constructor(
    private readonly services: Services,
    private readonly options: RealtimeSocketOptions = {},
  ) {
    this.admission = new RealtimeAdmission(services, options.turnDetection);
    this.sockets = new WebSocketAcceptor({ maximumMessageBytes: MAXIMUM_MESSAGE_BYTES, logger: services.logger, name: 'openai realtime' });
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.guard(socket);
    const model = new URL(request.url ?? '/', 'http://localhost').searchParams.get('model') ?? '';
    authenticateUpgrade(request, this.services, { keySubprotocol: OPENAI_KEY_SUBPROTOCOL, ephemeralPrefix: EPHEMERAL_KEY_PREFIX })
      .then(async (result) => {
        if ('code' in result) return { refused: result } as const;
        return { principal: result, problem: await this.admission.problem(result, model), voice: await this.admission.defaultVoice(result) } as const;
      })
      .then(
        (admission) => {
          this.sockets.complete(request, socket, head, (webSocket) => {
            if ('refused' in admission && admission.refused) return webSocket.close(admission.refused.code, admission.refused.reason);
            if (!('principal' in admission)) return;
            if (admission.problem) return this.refuse(webSocket, admission.problem);
            const beta = (request.headers['openai-beta'] ?? '').toString().includes('realtime=v1');
            this.open(webSocket, admission.principal, model, admission.voice, beta ? BETA_DIALECT : GA_DIALECT);
          });
        },
        (error: unknown) => {
          this.services.logger.error({ err: error }, 'openai realtime authentication failed');
          this.sockets.refuse(socket, 500, 'Internal Server Error', 'internal error');
        },
      );
  }

  /** Open sessions, for tests and diagnostics. */
  get size(): number {
    return this.conversations.size;
  }

  /** Ends every session (their humans' time recorded) and closes the websocket server. */
  async close(): Promise<void> {
    const closing = [...this.conversations].map(([webSocket, conversation]) => {
      webSocket.close(1001, 'server shutting down');
      return conversation.close('server_shutdown');
    });
    this.conversations.clear();
    await Promise.all(closing);
    await this.sockets.close();
  }

  private refuse(webSocket: WebSocket, problem: RealtimeRequestError): void {
    webSocket.send(JSON.stringify({ type: 'error', event_id: realtimeId('event'), error: problem.detail(undefined) }));
    webSocket.close(BAD_REQUEST_CLOSE, problem.message.slice(0, 120));
  }

  private open(webSocket: WebSocket, principal: Principal, model: string, voice: string, dialect: RealtimeDialect): void {
    const send = (body: RealtimeServerEventBody) => {
      const event = dialect.outgoing({ event_id: realtimeId('event'), ...body });
      if (event && webSocket.readyState === webSocket.OPEN) webSocket.send(JSON.stringify(event));
    };
    const conversation = this.admission.conversation(principal, model, voice, { send, end: (reason) => webSocket.close(1000, reason) });
    this.conversations.set(webSocket, conversation);
    webSocket.on('message', (data: RawData, isBinary: boolean) => this.received(conversation, data, isBinary, dialect));
    webSocket.on('close', () => {
      this.conversations.delete(webSocket);
      void conversation.close('client_closed');
    });
    void conversation.start().catch((error: unknown) => conversation.refuse(asRequestError(error)));
  }

  private received(conversation: RealtimeConversation, data: RawData, isBinary: boolean, dialect: RealtimeDialect): void {
    if (isBinary)
      return conversation.refuse(
        new RealtimeRequestError('Events are JSON text messages; audio goes base64 in input_audio_buffer.append.', null, 'invalid_value'),
      );
    const text = Array.isArray(data)
      ? Buffer.concat(data).toString('utf8')
      : Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.from(data).toString('utf8');
    try {
      const parsed = parseClientEvent(text, dialect);
      if ('error' in parsed) return conversation.refuse(parsed.error, parsed.eventId);
      void conversation.receive(parsed.event);
    } catch (error) {
      // Never the process: a fault reading one event is that event's error.
      this.services.logger.error({ err: error }, 'reading a realtime event failed');
      conversation.refuse(new RealtimeRequestError('The event could not be read.', null, 'server_error'));
    }
  }
}
