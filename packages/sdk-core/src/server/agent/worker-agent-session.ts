import type { Logger } from 'pino';
import { AGENT_NAME_ATTRIBUTE, CHAT_STREAM_TOPIC, ERROR_TOPIC, PLATFORM_OBSERVER_IDENTITY, TRANSCRIPTION_STREAM_TOPIC } from '../../contract/wire.js';
import type { RealtimeSessionConfig } from '../../contract/realtime.js';
import { BadRequestError } from '../../errors/api-error.js';
import {
  type AgentDispatcher,
  type AgentRoomConnection,
  type AgentTransport,
  type IncomingTextStream,
  type RoomParticipant,
  RpcCallError,
  RpcErrorCode,
} from '../engines/media/index.js';
import type { AgentSessionEvents, AgentSessionSpec, AgentStopReason } from '../kernel/ports/agent-session-host.js';
import type { ConversationMeter } from '../kernel/ports/conversation-meter.js';
import { ObservedTranscript } from './observed-transcript.js';
import { SessionWatch } from './session-watch.js';

/** The RPC method a worker's agent may register to honour `POST /v1/realtime/{session}/speak`. */
export const SPEAK_RPC_METHOD = 'palaver.speak';
/** The platform's hidden participant in the rooms of worker-run sessions. */
export const OBSERVER_IDENTITY = PLATFORM_OBSERVER_IDENTITY;

export interface WorkerAgentTuning {
  /** How long the worker's agent has to join after the dispatch. */
  joinTimeoutMs: number;
  humanJoinTimeoutMs: number;
  humanLeftGraceMs: number;
  /** How long a stopped job's agent has to leave before it is let go. */
  leaveTimeoutMs: number;
  /** How often the human's `conversational_seconds` limit is checked while they are in the room (default 2 s). */
  conversationCheckMs?: number | undefined;
}

export interface WorkerAgentDependencies {
  transport: AgentTransport;
  dispatcher: AgentDispatcher;
  /** `conversational_seconds` of the human's time in the room: checked against their limit, recorded at the end. */
  conversation?: ConversationMeter | undefined;
  logger: Logger;
  tuning: WorkerAgentTuning;
}

/**
 * A realtime session whose agent is a LiveKit Agents worker's: dispatches the named agent to the session's
 * room and watches the room as a hidden participant. The session starts once the worker's agent joined; it
 * stops when that agent leaves (`ended`), the human is gone (`human_left`), the time limit passes, the human's
 * `conversational_seconds` run out (`usage_limit_exceeded`, told on the `error` topic), or the API ends it (the
 * dispatch is deleted and the agent leaves). The human's seconds in the room are recorded once when it stops.
 * Final transcriptions and typed messages in the room are committed as the session's messages, and replayed to the
 * human on `transcript_resume` (`ObservedTranscript`); `speak` is a `palaver.speak` RPC to the agent.
 *
 * @example
 * const session = new WorkerAgentSession(spec, events, { name: 'support' }, dependencies);
 * await session.start();
 */
export class WorkerAgentSession {
  private observer: AgentRoomConnection | undefined;
  private dispatchId: string | undefined;
  private agentIdentity: string | undefined;
  private stopping: Promise<void> | undefined;
  private commits: Promise<void> = Promise.resolve();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly watch: SessionWatch;
  private readonly transcript: ObservedTranscript;
  private readonly logger: Logger;
  private agentJoined: (() => void) | undefined;

  constructor(
    private readonly spec: AgentSessionSpec,
    private readonly events: AgentSessionEvents,
    private readonly worker: { agentName: string; metadata?: string | undefined },
    private readonly dependencies: WorkerAgentDependencies,
  ) {
    this.logger = dependencies.logger.child({ session: spec.session.id, agentName: worker.agentName });
    this.transcript = new ObservedTranscript(spec.humanIdentity);
    this.watch = new SessionWatch({
      spec,
      tuning: dependencies.tuning,
      conversation: dependencies.conversation,
      logger: this.logger,
      tell: (message) => this.sendError(message),
      end: (reason, detail) => this.stopByItself(reason, detail),
    });
  }

  get sessionId(): string {
    return this.spec.session.id;
  }

  /** Dispatches the worker's agent and resolves once it is in the room. */
  async start(): Promise<void> {
    const { transport, dispatcher, tuning } = this.dependencies;
    const room = this.sessionId;
    if (dispatcher.hasWorker(this.worker.agentName) === false) {
      throw new Error(`no LiveKit Agents worker named '${this.worker.agentName}' is registered with the media endpoint (its /agent socket)`);
    }
    this.observer = await transport.join({ room, identity: OBSERVER_IDENTITY, name: OBSERVER_IDENTITY, hidden: true });
    const observer = this.observer;
    const joined = new Promise<void>((resolve) => (this.agentJoined = resolve));
    this.unsubscribe.push(
      observer.on('participantJoined', (participant) => this.participantJoined(participant)),
      observer.on('participantLeft', (participant) => this.participantLeft(participant)),
      observer.on('disconnected', (reason) => this.stopByItself('failed', `the platform lost the room (${reason})`)),
      observer.onTextStream(TRANSCRIPTION_STREAM_TOPIC, (stream) => void this.textStream(stream)),
      observer.onTextStream(CHAT_STREAM_TOPIC, (stream) => void this.textStream(stream)),
      this.transcript.answerResumes(observer),
    );
    try {
      this.dispatchId = (
        await dispatcher.dispatch({ room, agentName: this.worker.agentName, ...(this.worker.metadata !== undefined ? { metadata: this.worker.metadata } : {}) })
      ).id;
      for (const participant of observer.participants()) this.participantJoined(participant);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the agent of worker '${this.worker.agentName}' did not join within ${tuning.joinTimeoutMs / 1000} s`)),
          tuning.joinTimeoutMs,
        );
      });
      await Promise.race([joined, timedOut]).finally(() => clearTimeout(timer));
    } catch (error) {
      await this.shutdown('failed');
      throw error;
    }
    const humanInRoom = observer.participants().some((participant) => participant.identity === this.spec.humanIdentity);
    this.watch.start(this.spec.session.config.general.time_limit_s, humanInRoom);
  }

  /** Asks the worker's agent to say `text` (it must register the `palaver.speak` RPC method). */
  async speak(text: string): Promise<void> {
    if (this.stopping || !this.observer || !this.agentIdentity) throw new Error(`the agent of session ${this.sessionId} has stopped`);
    try {
      await this.observer.performRpc({ destinationIdentity: this.agentIdentity, method: SPEAK_RPC_METHOD, payload: text, responseTimeoutMs: 10_000 });
    } catch (error) {
      if (error instanceof RpcCallError && error.code === RpcErrorCode.unsupportedMethod) {
        throw new BadRequestError(
          `the agent of realtime session '${this.sessionId}' is LiveKit Agents worker '${this.worker.agentName}', which does not take speak requests: register the RPC method '${SPEAK_RPC_METHOD}' in its agent`,
        );
      }
      throw error;
    }
  }

  update(config: RealtimeSessionConfig): void {
    this.watch.setLimit(config.general.time_limit_s);
  }

  stop(reason: AgentStopReason = 'ended'): Promise<void> {
    return this.shutdown(reason);
  }

  private participantJoined(participant: RoomParticipant): void {
    if (participant.identity === this.spec.humanIdentity) {
      if (this.stopping) return;
      this.watch.joined();
      return;
    }
    if (this.agentIdentity || participant.kind !== 'agent') return;
    const name = participant.attributes[AGENT_NAME_ATTRIBUTE];
    if (name !== undefined && name !== this.worker.agentName) return;
    this.agentIdentity = participant.identity;
    this.logger.info({ identity: participant.identity }, "the worker's agent joined");
    this.agentJoined?.();
  }

  private participantLeft(participant: RoomParticipant): void {
    if (participant.identity === this.spec.humanIdentity) {
      this.watch.left(participant.kind === 'sip');
    } else if (participant.identity === this.agentIdentity) this.stopByItself('ended', `the agent of worker '${this.worker.agentName}' left the room`);
  }

  /** Commits final transcriptions (the human's and the agent's) and typed messages. */
  private async textStream(stream: IncomingTextStream): Promise<void> {
    const role = stream.from === this.spec.humanIdentity ? 'user' : stream.from === this.agentIdentity ? 'assistant' : undefined;
    if (!role) return;
    let final: boolean;
    let text: string;
    try {
      ({ final, text } = await this.transcript.read(stream, role === 'assistant'));
    } catch (error) {
      this.logger.debug({ err: error }, 'a text stream broke off');
      return;
    }
    if (!final || !text) return;
    this.commits = this.commits
      .then(() => this.events.messageCommitted({ role, content: text, speaking_ended_at: new Date().toISOString() }))
      .catch((error: unknown) => this.logger.error({ err: error, role }, 'committing a message failed'));
  }

  /** Tells the human (only) something they should know, on the `error` topic. */
  private sendError(message: string): void {
    this.observer
      ?.sendData(JSON.stringify({ message }), { topic: ERROR_TOPIC, reliable: true, destinationIdentities: [this.spec.humanIdentity] })
      .catch((error: unknown) => this.logger.debug({ err: error }, 'could not send an error message'));
  }

  private stopByItself(reason: AgentStopReason, detail: string): void {
    if (this.stopping) return;
    this.logger.info({ reason, detail }, 'the worker-run session stops');
    void this.shutdown(reason).then(() => this.events.stopped(reason, detail));
  }

  /**
   * Takes the dispatch back, waits (bounded) for the agent to leave, then leaves the room. The human's seconds stop
   * counting at once and are recorded (once) before the stop completes.
   */
  private shutdown(reason: AgentStopReason): Promise<void> {
    this.stopping ??= (async () => {
      const recording = this.watch.finish(reason);
      const observer = this.observer;
      const agentIdentity = this.agentIdentity;
      const agentHere = () => agentIdentity !== undefined && observer?.participants().some((participant) => participant.identity === agentIdentity);
      const left = new Promise<void>((resolve) => {
        if (!agentHere() || !observer) return resolve();
        this.unsubscribe.push(observer.on('participantLeft', (participant) => participant.identity === agentIdentity && resolve()));
      });
      if (this.dispatchId) {
        await this.dependencies.dispatcher
          .cancel(this.sessionId, this.dispatchId)
          .catch((error: unknown) => this.logger.warn({ err: error }, 'deleting the dispatch failed'));
      }
      if (reason !== 'ended' || agentHere()) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([left, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.dependencies.tuning.leaveTimeoutMs)))]);
        clearTimeout(timer);
      }
      await this.commits;
      for (const unsubscribe of this.unsubscribe) unsubscribe();
      await observer?.leave().catch(() => undefined);
      await recording;
    })();
    return this.stopping;
  }
}
