import { randomUUID } from 'node:crypto';
import type { RealtimeServerEventBody } from '../../../contract/openai-realtime-events.js';
import { BadRequestError, NotFoundError, UsageLimitExceededError } from '../../../errors/api-error.js';
import { REALTIME_SAMPLE_RATE, type RealtimeConversation, RealtimeRequestError, realtimeId } from '../../domain/openai-realtime/index.js';
import type { Services } from '../../domain/services.js';
import { answerCall, type CallPeer } from '../../engines/media/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { TurnDetectionOptions } from '../../voice/index.js';
import { GA_DIALECT } from './beta-dialect.js';
import { parseClientEvent } from './realtime-event-parser.js';
import { RealtimeAdmission, asRequestError } from './realtime-admission.js';

/** The data channel OpenAI's WebRTC clients open for the Realtime API's events. */
export const REALTIME_EVENTS_CHANNEL = 'oai-events';

interface Call {
  project: string;
  peer: CallPeer;
  conversation: RealtimeConversation;
}

/**
 * OpenAI's Realtime API over WebRTC (`POST /v1/realtime/calls`): answers a client's SDP offer with a werift peer and
 * runs the same `RealtimeConversation` as the websocket over it: events on the `oai-events` data channel, the human's
 * Opus track decoded into the input buffer (48 kHz to 24 kHz), the agent's speech on an Opus track paced at real time.
 * The call ends when its peer closes or it is hung up; the human's `conversational_seconds` are recorded then.
 *
 * @example
 * const { sdp, callId } = await realtimeCalls(services).open(principal, offerSdp, 'builtin-offline');
 */
export class RealtimeCallServer {
  private readonly calls = new Map<string, Call>();
  private readonly admission: RealtimeAdmission;

  constructor(
    private readonly services: Services,
    turnDetection?: TurnDetectionOptions,
  ) {
    this.admission = new RealtimeAdmission(services, turnDetection);
  }

  /** Open calls, for tests and diagnostics. */
  get size(): number {
    return this.calls.size;
  }

  /** Answers `offer`: the SDP answer and the call's id. A bad offer or a refused caller is an ApiError (400, 429...). */
  async open(principal: Principal, offer: string, requestedModel: string | undefined): Promise<{ sdp: string; callId: string }> {
    const model = requestedModel ?? (await this.defaultModel(principal));
    const problem = await this.admission.problem(principal, model);
    if (problem?.code === 'usage_limit_exceeded') throw new UsageLimitExceededError(problem.message);
    if (problem) throw new BadRequestError(`${problem.param ?? 'model'}: ${problem.message}`);
    const voice = await this.admission.defaultVoice(principal);
    const callId = `rtc_${randomUUID().replaceAll('-', '')}`;
    let conversation: RealtimeConversation | undefined;
    const peer = await answerCall(offer, REALTIME_EVENTS_CHANNEL, REALTIME_SAMPLE_RATE, {
      channelOpen: () => void conversation?.start().catch((error: unknown) => conversation?.refuse(asRequestError(error))),
      message: (text) => conversation && this.received(conversation, text),
      audio: (pcm) => conversation?.appendAudio(pcm),
      closed: () => void this.end(callId, 'client_closed'),
    }).catch((error: unknown) => {
      throw new BadRequestError(`Invalid SDP offer: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    const send = (body: RealtimeServerEventBody) => peer.send(JSON.stringify({ event_id: realtimeId('event'), ...body }));
    conversation = this.admission.conversation(principal, model, voice, { send, end: (reason) => void this.end(callId, reason), audioSink: peer.audio });
    this.calls.set(callId, { project: principal.project, peer, conversation });
    return { sdp: peer.sdp, callId };
  }

  /** Ends a call of this caller's project (`POST /v1/realtime/calls/{call_id}/hangup`). */
  async hangup(principal: Principal, callId: string): Promise<void> {
    const call = this.calls.get(callId);
    if (!call || call.project !== principal.project) throw new NotFoundError(`No call '${callId}' is in progress.`);
    await this.end(callId, 'hangup');
  }

  /** Ends every call (their humans' time recorded). */
  async close(): Promise<void> {
    await Promise.all([...this.calls.keys()].map((callId) => this.end(callId, 'server_shutdown')));
  }

  private async end(callId: string, reason: string): Promise<void> {
    const call = this.calls.get(callId);
    if (!call) return;
    this.calls.delete(callId);
    call.peer.close();
    await call.conversation.close(reason);
  }

  /** The first LLM this caller may use: OpenAI's WebRTC clients name the model in `session.update`, after connecting. */
  private async defaultModel(principal: Principal): Promise<string> {
    const page = await this.services.llms.list(principal, { pageSize: 1 });
    return page.values[0]?.id ?? '';
  }

  private received(conversation: RealtimeConversation, text: string): void {
    try {
      const parsed = parseClientEvent(text, GA_DIALECT);
      if ('error' in parsed) return conversation.refuse(parsed.error, parsed.eventId);
      void conversation.receive(parsed.event);
    } catch (error) {
      this.services.logger.error({ err: error }, 'reading a realtime event failed');
      conversation.refuse(new RealtimeRequestError('The event could not be read.', null, 'server_error'));
    }
  }
}

const servers = new WeakMap<Services, RealtimeCallServer>();

/** The call server of these services (made on first use; `createServer` closes it at shutdown). */
export function realtimeCalls(services: Services): RealtimeCallServer {
  let server = servers.get(services);
  if (!server) servers.set(services, (server = new RealtimeCallServer(services)));
  return server;
}
