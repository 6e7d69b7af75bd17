import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ContextMessageCreateParams } from '../../contract/contexts.js';
import type { RealtimeSessionConfig } from '../../contract/realtime.js';
import { AGENT_IDENTITY, AGENT_STATE_ATTRIBUTE, ERROR_TOPIC, LEGACY_CHAT_TOPIC, TOOL_CALL_TOPIC, TURN_METRICS_TOPIC } from '../../contract/wire.js';
import type { AgentRoomConnection, AudioOutput, RemoteAudioTrack, RoomParticipant } from '../engines/media/index.js';
import type { AgentSessionEvents, AgentSessionHandle, AgentSessionSpec, AgentStopReason } from '../kernel/ports/agent-session-host.js';
import { sessionTools, VoicePipeline, wireTurnMetrics, type SessionTools } from '../voice/index.js';
import { AgentStatePublisher, agentMetadata, livekitAgentState } from './agent-state-publisher.js';
import { readRoomInput } from './room-input.js';
import { answered, onPresence, SessionWatch } from './session-watch.js';
import { leaveStep } from './settle-within.js';
import type { VoiceAgentDependencies } from './voice-agent-options.js';

export type { VoiceAgentDependencies, VoiceAgentTuning } from './voice-agent-options.js';

/**
 * One session's agent: the room's side of a `VoicePipeline` (server/voice/: a turn listened to, answered, spoken).
 * It joins the room, publishes its voice, keeps the agent state, time and usage limits and the human's presence on
 * the wire (`docs/WIRE-PROTOCOL.md`), hands the human's track and typed messages to the pipeline, and leaves.
 *
 * @example
 * const agent = new VoiceAgent(spec, events, dependencies);
 * await agent.start();
 * await agent.speak('Hello!');
 * await agent.stop();
 */
export class VoiceAgent implements AgentSessionHandle {
  readonly sessionId: string;
  private config: RealtimeSessionConfig;
  private readonly logger: Logger;
  private connection!: AgentRoomConnection;
  private output!: AudioOutput;
  private publisher!: AgentStatePublisher;
  private pipeline: VoicePipeline | undefined;
  private readonly tools: SessionTools;
  private readonly watch: SessionWatch;
  private humanSeen = false;
  /** The human typed on LiveKit's older chat (`lk-chat-topic`): the agent's answers go there too. */
  private legacyChat = false;
  private commits: Promise<void> = Promise.resolve();
  private readonly unsubscribe: Array<() => void> = [];
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly spec: AgentSessionSpec,
    private readonly events: AgentSessionEvents,
    private readonly dependencies: VoiceAgentDependencies,
  ) {
    this.sessionId = spec.session.id;
    this.config = spec.session.config;
    this.logger = dependencies.logger.child({ session: this.sessionId });
    this.tools = sessionTools({
      send: (message) => this.send(TOOL_CALL_TOPIC, message, [spec.humanIdentity]),
      tuning: dependencies.tuning.tools,
      addressPolicy: dependencies.toolAddressPolicy,
      logger: this.logger,
    });
    this.watch = new SessionWatch({
      spec,
      tuning: dependencies.tuning,
      conversation: dependencies.conversation,
      logger: this.logger,
      tick: (seconds) => this.publisher?.setRemainingSeconds(seconds),
      tell: (message) => this.sendError(message),
      end: (reason, detail) => this.stopByItself(reason, detail),
    });
  }

  /** Joins the room and publishes the agent's track; the pipeline warms up in the background. */
  async start(): Promise<void> {
    const { transport, tuning } = this.dependencies;
    const remaining = this.config.general.time_limit_s;
    await transport.ensureRoom({ room: this.sessionId, metadata: JSON.stringify({ session: this.sessionId }) });
    this.connection = await transport.join({
      room: this.sessionId,
      identity: AGENT_IDENTITY,
      name: AGENT_IDENTITY,
      metadata: agentMetadata('warmup', remaining),
      attributes: { [AGENT_STATE_ATTRIBUTE]: livekitAgentState('warmup') },
    });
    try {
      this.publisher = new AgentStatePublisher(this.connection, this.logger, { state: 'warmup', remainingSeconds: remaining });
      this.output = await this.connection.publishAudio({ name: 'agent_voice', sampleRate: tuning.outputSampleRate });
      const pipeline = this.createPipeline();
      this.pipeline = pipeline;
      this.listenToRoom(pipeline);
      const human = this.connection.participants().find((participant) => participant.identity === this.spec.humanIdentity);
      this.watch.start(remaining, human !== undefined && answered(human));
      void this.warmUp(pipeline);
      for (const track of this.connection.audioTracks()) this.audioTrack(track);
      if (human) this.participantJoined(human);
    } catch (error) {
      void this.watch.finish('failed');
      await this.connection.leave().catch(() => undefined);
      throw error;
    }
  }

  async speak(text: string): Promise<void> {
    if (this.stopping || !this.pipeline) throw new Error(`the agent of session ${this.sessionId} has stopped`);
    this.pipeline.say(text);
  }

  update(config: RealtimeSessionConfig): void {
    this.config = config;
    this.watch.setLimit(config.general.time_limit_s);
  }

  stop(reason: AgentStopReason = 'ended'): Promise<void> {
    return this.shutdown(reason);
  }

  private createPipeline(): VoicePipeline {
    const { dependencies, spec } = this;
    return new VoicePipeline(
      {
        sessionId: this.sessionId,
        principal: spec.principal,
        config: () => this.config,
        speech: dependencies.speech,
        chat: dependencies.chat,
        voices: dependencies.voices,
        tools: this.tools,
        turnDetection: dependencies.tuning.turnDetection,
        commit: (message) => {
          if (this.legacyChat) this.answerOnLegacyChat(message);
          this.commits = this.commits
            .then(() => this.events.messageCommitted(message))
            .catch((error: unknown) => this.logger.error({ err: error, role: message.role }, 'committing a message failed'));
        },
        logger: this.logger,
      },
      {
        connection: this.connection,
        output: this.output,
        outputSampleRate: dependencies.tuning.outputSampleRate,
        humanIdentity: spec.humanIdentity,
        states: this.publisher,
        tell: (message) => this.sendError(message),
        ended: (reason, detail) => this.stopByItself(reason, detail),
        measured: (metrics) => {
          dependencies.onTurnMetrics?.(metrics);
          this.send(TURN_METRICS_TOPIC, wireTurnMetrics(metrics), [spec.humanIdentity]).catch((error: unknown) =>
            this.logger.debug({ err: error }, 'the turn metrics were not sent'),
          );
        },
      },
    );
  }

  private listenToRoom(pipeline: VoicePipeline): void {
    this.unsubscribe.push(
      ...onPresence(this.connection, (participant) => this.participantJoined(participant)),
      this.connection.on('participantLeft', (participant) => this.participantLeft(participant)),
      this.connection.on('audioTrack', (track) => this.audioTrack(track)),
      this.connection.on('disconnected', (reason) => {
        if (!this.stopping) this.stopByItself('failed', `the agent was disconnected from the room (${reason})`);
      }),
      readRoomInput(this.connection, this.spec.humanIdentity, {
        live: () => !this.stopping && !this.publisher.terminal,
        typed: (text, via) => {
          this.legacyChat ||= via === LEGACY_CHAT_TOPIC;
          pipeline.typed(text);
        },
        toolCall: (message) => this.tools.clientCalls.receive(message),
        refused: (message) => this.sendError(message),
      }),
    );
  }

  /** Loads the listening engines and the voice, then listens; an agent that cannot start stops. */
  private async warmUp(pipeline: VoicePipeline): Promise<void> {
    try {
      await pipeline.warmUp();
      if (!this.stopping) this.publisher.setState('listening');
    } catch (error) {
      this.logger.error({ err: error }, 'the agent pipeline did not start');
      this.sendError('The agent could not start and has to stop.');
      this.stopByItself('failed', error instanceof Error ? error.message : String(error));
    }
  }

  private participantJoined(participant: RoomParticipant): void {
    if (participant.identity !== this.spec.humanIdentity || this.stopping || !answered(participant)) return;
    this.watch.joined();
    if (this.humanSeen) return;
    this.humanSeen = true;
    const answerMessage = this.config.output.answer_message;
    if (answerMessage) this.pipeline?.say(answerMessage, true);
  }

  private participantLeft(participant: RoomParticipant): void {
    if (participant.identity !== this.spec.humanIdentity || this.stopping) return;
    this.watch.left(participant.kind === 'sip');
  }

  private audioTrack(track: RemoteAudioTrack): void {
    if (track.participant.identity === this.spec.humanIdentity && !this.stopping) this.pipeline?.listen(track);
  }

  /** A client on LiveKit's older chat reads the agent's answers there too. */
  private answerOnLegacyChat(message: ContextMessageCreateParams): void {
    if (message.role !== 'assistant' || typeof message.content !== 'string' || message.content === '') return;
    this.send(LEGACY_CHAT_TOPIC, { id: randomUUID(), timestamp: Date.now(), message: message.content }).catch(() => undefined);
  }

  private send(topic: string, message: unknown, to?: string[]): Promise<void> {
    if (!this.connection) return Promise.reject(new Error('the agent is not in the room'));
    return this.connection.sendData(JSON.stringify(message), { topic, reliable: true, ...(to ? { destinationIdentities: to } : {}) });
  }

  private sendError(message: string): void {
    if (!this.connection) return;
    this.send(ERROR_TOPIC, { message }).catch((error: unknown) => this.logger.debug({ err: error }, 'could not send an error message'));
  }

  /** Stops because of something that happened in the session, and tells the session service. */
  private stopByItself(reason: AgentStopReason, detail: string): void {
    if (this.stopping) return;
    if (reason === 'time_limit_exceeded' || reason === 'usage_limit_exceeded') this.publisher.setState(reason);
    this.logger.info({ reason, detail }, 'the agent stops');
    void this.shutdown(reason);
    Promise.resolve()
      .then(() => this.events.stopped(reason, detail))
      .catch((error: unknown) => this.logger.error({ err: error, reason }, 'reporting the agent stop failed'));
  }

  /** Cancels everything at once, then leaves the room (after a terminal state has reached the room). */
  private shutdown(reason: AgentStopReason): Promise<void> {
    this.stopping ??= (async () => {
      this.logger.debug({ reason }, 'stopping the agent');
      // The human's seconds stop counting now; they are recorded (once) before the agent has stopped.
      const recording = this.watch.finish(reason);
      this.pipeline?.close('the agent stopped');
      for (const unsubscribe of this.unsubscribe) unsubscribe();
      if (!this.connection) return recording;
      await this.publisher?.settled();
      if (this.publisher?.terminal) await sleep(this.dependencies.tuning.terminalLingerMs);
      await this.commits;
      await leaveStep(this.output?.close(), 'unpublishing the audio track', this.logger);
      await leaveStep(this.connection.leave(), 'leaving the room', this.logger);
      await recording;
    })();
    return this.stopping;
  }
}
