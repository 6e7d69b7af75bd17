import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ContextMessageCreateParams } from '../../contract/contexts.js';
import type { RealtimeSessionConfig } from '../../contract/realtime.js';
import { parseDataPacket } from '../../contract/sdk.js';
import type {
  AgentRoomConnection,
  AgentTransport,
  AudioOutput,
  IncomingTextStream,
  ReceivedData,
  RemoteAudioTrack,
  RoomParticipant,
} from '../engines/media/index.js';
import type { Speech, SttEngine, VoiceActivityDetector } from '../engines/speech/index.js';
import type { OutboundPolicy } from '../kernel/outbound/index.js';
import type { AgentSessionEvents, AgentSessionHandle, AgentSessionSpec, AgentStopReason } from '../kernel/ports/agent-session-host.js';
import { AgentSpeaker } from '../voice/speaker/agent-speaker.js';
import { AgentStatePublisher, agentMetadata, livekitAgentState } from './agent-state-publisher.js';
import { AgentToolRunner, DEFAULT_AGENT_TOOL_TUNING, type AgentToolTuning } from '../voice/tools/agent-tool-runner.js';
import { runTurn, type PendingTurn } from '../voice/voice-turn.js';
import { resolveSessionVoice, type AgentVoices, type SessionVoice } from '../voice/speaker/agent-voice.js';
import type { AgentChat } from '../voice/answering/answer-stream.js';
import { ClientToolCalls } from '../voice/tools/client-tool-calls.js';
import { Conversation } from '../voice/answering/conversation.js';
import { HumanListener, type HeardUtterance, type TurnDetectionOptions, type UtteranceHandler } from '../voice/listener/human-listener.js';
import { streamAnswer } from '../voice/answering/answer-stream.js';
import { buildSystemPrompt } from '../voice/answering/system-prompt.js';
import { AnswerPreparer } from '../voice/turn-taking/answer-preparer.js';
import { loadListeningEngines } from '../voice/listener/listening-engines.js';
import { SessionCountdown } from './session-countdown.js';
import { HumanPresence } from './human-presence.js';
import { ConversationTime } from './conversation-time.js';
import type { ConversationMeter } from '../kernel/ports/conversation-meter.js';
import { settleWithin } from './settle-within.js';
import { speechBudgetRefusal } from '../voice/speaker/speech-budget.js';
import type { TurnMetrics } from '../kernel/ports/turn-metrics.js';
import { traceTurn } from '../voice/metrics/turn-span.js';
import { UtteranceTranscript } from '../voice/transcript/utterance-transcript.js';
import {
  AGENT_IDENTITY,
  AGENT_STATE_ATTRIBUTE,
  CHAT_INPUT_TOPIC,
  CHAT_STREAM_TOPIC,
  ERROR_TOPIC,
  TOOL_CALL_TOPIC,
  TURN_METRICS_TOPIC,
} from '../../contract/wire.js';
import type { AgentTurnMetrics } from '../../contract/sdk.js';

/** Longest wait for one step of leaving (unpublish, leave). */
const SHUTDOWN_STEP_TIMEOUT_MS = 5000;
/** A typed turn's longest text (as `chat_input`'s `SDKSendChatMessageParams`). */
const MAX_TYPED_CHARACTERS = 10_000;

/** Timing knobs; the defaults suit a person on a microphone. */
export interface VoiceAgentTuning {
  turnDetection: TurnDetectionOptions;
  /** How long the human may be gone before the agent stops with `human_left`. */
  humanLeftGraceMs: number;
  /** How long the agent waits for the human to join at all before it stops with `human_left`. */
  humanJoinTimeoutMs: number;
  /** How long the agent stays after a terminal state, so clients see it before the agent leaves. */
  terminalLingerMs: number;
  /** Sample rate of the agent's published track. */
  outputSampleRate: number;
  /** Tool call timeouts and rounds (defaults: `DEFAULT_AGENT_TOOL_TUNING`). */
  tools?: Partial<AgentToolTuning> | undefined;
  /** How often the human's `conversational_seconds` limit is checked while they are in the room (default 2 s). */
  conversationCheckMs?: number | undefined;
}

export interface VoiceAgentDependencies {
  transport: AgentTransport;
  speech: Pick<Speech, 'tts' | 'stt' | 'vad'>;
  chat: AgentChat;
  voices?: AgentVoices | undefined;
  /** `conversational_seconds` of the human's time in the room: checked against their limit, recorded at the end. */
  conversation?: ConversationMeter | undefined;
  logger: Logger;
  tuning: VoiceAgentTuning;
  /** Where `web_request` tools may point (default: public addresses only). */
  toolAddressPolicy?: OutboundPolicy | undefined;
  /** Called after every turn with what it measured. */
  onTurnMetrics?: ((metrics: TurnMetrics) => void) | undefined;
}

/**
 * One session's agent: joins the room, listens to the human (VAD + streaming STT), answers through the
 * LLM gateway and speaks with the session's voice, keeping the agent state, the transcriptions and the
 * time limit on the wire as `docs/WIRE-PROTOCOL.md` says. Turns run one at a time from a queue;
 * barge-in aborts the running one.
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
  private speaker!: AgentSpeaker;
  private publisher!: AgentStatePublisher;
  private readonly conversation: Conversation;
  private readonly countdown: SessionCountdown;
  private readonly clientTools: ClientToolCalls;
  private readonly toolRunner: AgentToolRunner;
  private readonly queue: PendingTurn[] = [];
  private current: AbortController | undefined;
  private driving = false;
  private turns = 0;
  private ready: Promise<void> = Promise.resolve();
  private vad: VoiceActivityDetector | undefined;
  private stt: SttEngine | undefined;
  private sttUnavailableReason: string | undefined;
  private listener: HumanListener | undefined;
  private pendingTrack: RemoteAudioTrack | undefined;
  private humanSeen = false;
  private readonly presence: HumanPresence;
  private readonly conversationTime: ConversationTime;
  private voice: { key: string; voice: Promise<SessionVoice> } | undefined;
  private commits: Promise<void> = Promise.resolve();
  private readonly unsubscribe: Array<() => void> = [];
  private stopping: Promise<void> | undefined;
  private readonly preparer: AnswerPreparer;

  constructor(
    private readonly spec: AgentSessionSpec,
    private readonly events: AgentSessionEvents,
    private readonly dependencies: VoiceAgentDependencies,
  ) {
    this.sessionId = spec.session.id;
    this.config = spec.session.config;
    this.logger = dependencies.logger.child({ session: this.sessionId });
    this.conversation = new Conversation(this.config.generative.context.latest_messages);
    const toolTuning: AgentToolTuning = { ...DEFAULT_AGENT_TOOL_TUNING, ...dependencies.tuning.tools };
    this.clientTools = new ClientToolCalls(
      async (message) => {
        if (!this.connection) throw new Error('the agent is not in the room');
        await this.connection.sendData(JSON.stringify(message), { topic: TOOL_CALL_TOPIC, reliable: true, destinationIdentities: [spec.humanIdentity] });
      },
      { ackMs: toolTuning.clientAckTimeoutMs, resultMs: toolTuning.clientResultTimeoutMs },
      this.logger,
    );
    this.toolRunner = new AgentToolRunner({
      clientCalls: this.clientTools,
      addressPolicy: dependencies.toolAddressPolicy ?? { allowLoopback: false, allowPrivateNetworks: false },
      tuning: toolTuning,
      logger: this.logger,
    });
    this.preparer = new AnswerPreparer((text, signal) =>
      streamAnswer(dependencies.chat, {
        principal: spec.principal,
        model: this.config.generative.llm.id,
        messages: [...this.conversation.messages(buildSystemPrompt(this.config.generative)), { role: 'user', content: text }],
        metadata: { realtime_session: this.sessionId, prepared: true },
        signal,
      }),
    );
    this.presence = new HumanPresence({ joinTimeoutMs: dependencies.tuning.humanJoinTimeoutMs, leftGraceMs: dependencies.tuning.humanLeftGraceMs }, (detail) =>
      this.stopByItself('human_left', detail),
    );
    this.conversationTime = new ConversationTime(dependencies.conversation, spec.principal, this.sessionId, {
      checkMs: dependencies.tuning.conversationCheckMs ?? 2000,
      exceeded: (message) => {
        this.sendError('The usage limit (conversational_seconds) is reached: the session ends.');
        this.stopByItself('usage_limit_exceeded', message);
      },
      logger: this.logger,
    });
    this.countdown = new SessionCountdown({
      tick: (seconds) => this.publisher?.setRemainingSeconds(seconds),
      expired: () => this.stopByItself('time_limit_exceeded', 'the session time limit was reached'),
    });
  }

  /** Joins the room and publishes the agent's track; the pipeline warms up in the background. */
  async start(): Promise<void> {
    const { transport, tuning } = this.dependencies;
    const room = this.sessionId;
    const remaining = this.config.general.time_limit_s;
    await transport.ensureRoom({ room, metadata: JSON.stringify({ session: room }) });
    this.connection = await transport.join({
      room,
      identity: AGENT_IDENTITY,
      name: AGENT_IDENTITY,
      metadata: agentMetadata('warmup', remaining),
      attributes: { [AGENT_STATE_ATTRIBUTE]: livekitAgentState('warmup') },
    });
    try {
      this.publisher = new AgentStatePublisher(this.connection, this.logger, { state: 'warmup', remainingSeconds: remaining });
      this.output = await this.connection.publishAudio({ name: 'agent_voice', sampleRate: tuning.outputSampleRate });
      this.speaker = new AgentSpeaker(this.dependencies.speech.tts, this.output, tuning.outputSampleRate, this.logger);
      this.unsubscribe.push(
        this.connection.on('participantJoined', (participant) => this.participantJoined(participant)),
        this.connection.on('participantLeft', (participant) => this.participantLeft(participant)),
        this.connection.on('audioTrack', (track) => this.audioTrack(track)),
        this.connection.on('data', (data) => this.data(data)),
        this.connection.onTextStream(CHAT_STREAM_TOPIC, (stream) => void this.chatStream(stream)),
        this.connection.on('disconnected', (reason) => {
          if (!this.stopping) this.stopByItself('failed', `the agent was disconnected from the room (${reason})`);
        }),
      );
      this.countdown.start(remaining);
      this.conversationTime.start();
      this.ready = this.warmUp().catch((error: unknown) => {
        this.logger.error({ err: error }, 'the agent pipeline did not start');
        this.sendError('The agent could not start and has to stop.');
        this.stopByItself('failed', error instanceof Error ? error.message : String(error));
      });
      for (const track of this.connection.audioTracks()) this.audioTrack(track);
      const human = this.connection.participants().find((participant) => participant.identity === this.spec.humanIdentity);
      if (human) this.participantJoined(human);
      else this.presence.expectJoin();
    } catch (error) {
      this.countdown.stop();
      await this.connection.leave().catch(() => undefined);
      throw error;
    }
  }

  async speak(text: string): Promise<void> {
    if (this.stopping) throw new Error(`the agent of session ${this.sessionId} has stopped`);
    this.enqueue({ kind: 'say', text, receivedAtClock: performance.now() });
  }

  update(config: RealtimeSessionConfig): void {
    this.config = config;
    this.countdown.setLimit(config.general.time_limit_s);
  }

  stop(reason: AgentStopReason = 'ended'): Promise<void> {
    return this.shutdown(reason);
  }

  /** Loads the VAD and the STT engine and starts the voice's engine, then listens. */
  private async warmUp(): Promise<void> {
    const [engines] = await Promise.all([
      loadListeningEngines(this.dependencies.speech, this.logger),
      this.config.output.speech_synthesis_enabled ? this.warmVoice() : undefined,
    ]);
    this.vad = engines.vad;
    this.stt = engines.stt;
    this.sttUnavailableReason = engines.sttUnavailableReason;
    if (this.stopping) return;
    if (this.pendingTrack) this.audioTrack(this.pendingTrack);
    this.publisher.setState('listening');
  }

  private async warmVoice(): Promise<void> {
    try {
      const voice = await this.sessionVoice();
      await this.dependencies.speech.tts.engine(voice.selection.service ?? 'flite')?.warmUp?.();
    } catch (error) {
      this.logger.warn({ err: error }, 'the TTS engine did not warm up');
    }
  }

  private sessionVoice(): Promise<SessionVoice> {
    const generative = this.config.generative;
    const key = generative.voice_override?.id ?? generative.persona?.voice ?? '';
    if (this.voice?.key !== key) {
      this.voice = { key, voice: resolveSessionVoice(generative, this.spec.principal, this.dependencies.voices, this.logger) };
    }
    return this.voice.voice;
  }

  private participantJoined(participant: RoomParticipant): void {
    if (participant.identity !== this.spec.humanIdentity || this.stopping) return;
    this.presence.joined();
    this.conversationTime.joined();
    if (this.humanSeen) return;
    this.humanSeen = true;
    const answerMessage = this.config.output.answer_message;
    if (answerMessage) {
      this.queue.unshift({ kind: 'say', text: answerMessage, receivedAtClock: performance.now() });
      void this.drive();
    }
  }

  private participantLeft(participant: RoomParticipant): void {
    if (participant.identity !== this.spec.humanIdentity || this.stopping) return;
    this.presence.left();
    this.conversationTime.left();
  }

  private audioTrack(track: RemoteAudioTrack): void {
    if (track.participant.identity !== this.spec.humanIdentity || this.stopping) return;
    if (!this.vad) {
      // The pipeline is still warming up (or has no VAD): attach when it can.
      this.pendingTrack = track;
      return;
    }
    this.pendingTrack = undefined;
    this.listener?.close();
    if (!this.stt) {
      this.sendError(
        `Speech input needs a speech-to-text provider, and none is available on this server (${this.sttUnavailableReason}). Type your messages instead.`,
      );
    }
    const listener = new HumanListener({
      track,
      vad: this.vad,
      stt: this.stt,
      turnDetection: this.turnDetection(),
      logger: this.logger,
      callbacks: {
        speechStarted: (startedAt) => this.speechStarted(track, startedAt),
        // Barge-in as soon as speech is likely: the agent's voice stops before the speech is confirmed.
        speechLikely: () => {
          if (this.current && this.config.input.interruptable && !this.stopping) this.interrupt('the human started speaking');
        },
        failed: (error) => {
          this.logger.warn({ err: error }, 'speech recognition failed');
          this.sendError(`Speech recognition failed: ${error.message}`);
        },
      },
    });
    this.listener = listener;
    void listener.run();
  }

  /** Barge-in and the listening policy: whether and how to take an utterance that just started. */
  private speechStarted(track: RemoteAudioTrack, startedAt: Date): UtteranceHandler | undefined {
    if (this.stopping || this.publisher.terminal) return undefined;
    if (this.current) {
      if (this.config.input.interruptable) this.interrupt('the human spoke');
      else if (!this.config.input.parallel_listening) return undefined;
    }
    const transcript = new UtteranceTranscript(
      this.connection,
      { agent: false, speaker: track.participant.identity, trackSid: track.trackSid, createdAt: startedAt },
      this.logger,
    );
    let discarded = 0;
    // The segment's final may read other words than the decoder's early ones: the answer to those is thrown away.
    const prepare = (text: string) => {
      if (this.prepareAnswer(text)) discarded += 1;
    };
    return {
      interim: (text) => void transcript.update(text),
      pausing: prepare,
      paused: (pause) => prepare(pause.text),
      resumed: () => {
        if (this.preparer.discard()) discarded += 1;
      },
      finished: (utterance) => this.heard(utterance, transcript, discarded),
    };
  }

  /** The session's turn detection: its config (`input.turn_detection`) over the server's defaults. */
  private turnDetection(): TurnDetectionOptions {
    const base = this.dependencies.tuning.turnDetection;
    const configured = this.config.input.turn_detection;
    if (!configured) return base;
    return {
      ...base,
      mode: configured.mode,
      silenceMs: configured.silence_ms,
      minWaitMs: configured.min_wait_ms,
      maxWaitMs: configured.max_wait_ms,
      preemptive: configured.preemptive,
    };
  }

  /**
   * At a pause (adaptive): asks the model now with the words so far, to play the answer the moment the turn
   * ends. Not while a turn runs or waits (the conversation would differ), and never with tools (their calls
   * act on the world before the turn is confirmed). Whether an answer prepared for other words was thrown away.
   */
  private prepareAnswer(text: string): boolean {
    const settings = this.turnDetection();
    if (!settings.preemptive || settings.mode !== 'adaptive' || text === '') return false;
    if (this.stopping || this.publisher.terminal || this.current || this.queue.length > 0) return false;
    if (this.config.generative.tool_definitions.length > 0) return false;
    if (this.preparer.holds(text, this.conversation.version)) return false;
    return this.preparer.prepare(text, this.conversation.version);
  }

  private heard(utterance: HeardUtterance, transcript: UtteranceTranscript, discardedAnswers: number): void {
    const idle = !this.current && this.queue.length === 0;
    const prepared = utterance.text && idle ? this.preparer.take(utterance.text, this.conversation.version) : undefined;
    if (!prepared && this.preparer.discard()) discardedAnswers += 1;
    if (!utterance.text) {
      if (transcript.started) void transcript.finish('', utterance.endedAt);
      return;
    }
    void transcript.finish(utterance.text, utterance.endedAt);
    if (this.stopping || this.publisher.terminal) {
      prepared?.controller.abort();
      return;
    }
    this.enqueue({
      ...(prepared ? { prepared } : {}),
      discardedAnswers,
      kind: 'user',
      source: 'voice',
      text: utterance.text,
      startedAt: utterance.startedAt,
      endedAt: utterance.endedAt,
      endedAtClock: utterance.speechEndedAt,
      endOfSpeechDecisionMs: utterance.endOfSpeechDecisionMs,
      sttFinalMs: utterance.sttFinalMs,
      ...(utterance.endOfTurn ? { endOfTurn: utterance.endOfTurn } : {}),
    });
  }

  private data(data: ReceivedData): void {
    if (data.from !== this.spec.humanIdentity || this.stopping || this.publisher.terminal) return;
    const packet = parseDataPacket(data.topic, new TextDecoder().decode(data.payload));
    if (packet?.topic === TOOL_CALL_TOPIC) {
      this.clientTools.receive(packet.payload);
      return;
    }
    if (packet?.topic !== CHAT_INPUT_TOPIC) return;
    this.typed(packet.payload.text);
  }

  /** A LiveKit chat message (`lk.chat` text stream, as LiveKit's components send it): a typed turn. */
  private async chatStream(stream: IncomingTextStream): Promise<void> {
    if (stream.from !== this.spec.humanIdentity) return;
    let text = '';
    for await (const chunk of stream) {
      text += chunk;
      // Longer than a typed turn may be: the rest is not read, the message is refused.
      if (text.length > MAX_TYPED_CHARACTERS) {
        this.sendError(`A typed message may be at most ${MAX_TYPED_CHARACTERS} characters.`);
        return;
      }
    }
    if (text.trim() === '' || this.stopping || this.publisher.terminal) return;
    this.typed(text.trim());
  }

  /**
   * A typed turn: it comes back to every client as the human's final transcription (the connector's
   * `transcriptions`, LiveKit components, `message` topic readers), then the agent answers it.
   */
  private typed(text: string): void {
    const now = new Date();
    void new UtteranceTranscript(this.connection, { agent: false, speaker: this.spec.humanIdentity, createdAt: now }, this.logger).finish(text, now);
    if (this.current && this.config.input.interruptable) this.interrupt('the human typed a message');
    this.enqueue({ kind: 'user', source: 'text', text, startedAt: now, endedAt: now, endedAtClock: performance.now() });
  }

  private enqueue(turn: PendingTurn): void {
    this.queue.push(turn);
    void this.drive();
  }

  private interrupt(reason: string): void {
    if (this.current && !this.current.signal.aborted) this.current.abort(new DOMException(reason, 'AbortError'));
  }

  /** Runs queued turns one at a time. */
  private async drive(): Promise<void> {
    if (this.driving) return;
    this.driving = true;
    try {
      await this.ready;
      while (!this.stopping && this.queue.length > 0) await this.runNext(this.queue.shift()!);
    } catch (error) {
      this.logger.error({ err: error }, 'the agent failed');
      this.sendError('The agent failed and has to stop.');
      this.stopByItself('failed', error instanceof Error ? error.message : String(error));
    } finally {
      this.driving = false;
    }
    if (!this.stopping && this.queue.length > 0) void this.drive();
  }

  private async runNext(turn: PendingTurn): Promise<void> {
    const controller = new AbortController();
    this.current = controller;
    // A prepared answer is aborted with its turn (barge-in, stop).
    const prepared = turn.kind === 'user' ? turn.prepared : undefined;
    if (prepared) controller.signal.addEventListener('abort', () => prepared.controller.abort(controller.signal.reason), { once: true });
    const index = this.turns++;
    try {
      // The turn runs inside its trace span, so the LLM gateway's span is the span's child.
      const outcome = await traceTurn(turn, { sessionId: this.sessionId, index }, controller.signal, () =>
        runTurn(
          {
            sessionId: this.sessionId,
            principal: this.spec.principal,
            config: this.config,
            chat: this.dependencies.chat,
            connection: this.connection,
            audioTrackSid: this.output.trackSid,
            speaker: this.speaker,
            publisher: this.publisher,
            conversation: this.conversation,
            voice: () => this.sessionVoice(),
            commit: (message) => this.commit(message),
            recordSpeech: (voice, seconds) => this.recordSpeech(voice, seconds),
            speechBudget: () => speechBudgetRefusal(this.dependencies.voices, this.spec.principal),
            tools: this.toolRunner,
            logger: this.logger,
          },
          turn,
          index,
          controller.signal,
        ),
      );
      this.logger.debug({ ...outcome.metrics }, 'agent turn');
      this.dependencies.onTurnMetrics?.(outcome.metrics);
      this.reportTurn(outcome.metrics);
      if (outcome.type === 'usage_limit_exceeded') {
        this.sendError(`Usage limit reached: ${outcome.message}`);
        this.stopByItself('usage_limit_exceeded', outcome.message);
      } else if (outcome.type === 'failed') {
        this.logger.warn({ reason: outcome.message, turn: index }, 'agent turn failed');
        this.sendError(outcome.message);
      }
    } finally {
      controller.abort();
      this.current = undefined;
      if (!this.stopping && this.queue.length === 0) this.publisher.setState('listening');
    }
  }

  /** Tells the human's app the turn's timings (`turn_metrics` topic). */
  private reportTurn(metrics: TurnMetrics): void {
    const wire: AgentTurnMetrics = {
      turn: metrics.turn,
      source: metrics.source,
      interrupted: metrics.interrupted,
      ...(metrics.endOfSpeechDecisionMs !== undefined ? { end_of_speech_decision_ms: Math.round(metrics.endOfSpeechDecisionMs) } : {}),
      ...(metrics.sttFinalMs !== undefined ? { stt_final_ms: Math.round(metrics.sttFinalMs) } : {}),
      ...(metrics.llmFirstTokenMs !== undefined ? { llm_first_token_ms: Math.round(metrics.llmFirstTokenMs) } : {}),
      ...(metrics.ttsFirstAudioMs !== undefined ? { tts_first_audio_ms: Math.round(metrics.ttsFirstAudioMs) } : {}),
      ...(metrics.responseMs !== undefined ? { response_ms: Math.round(metrics.responseMs) } : {}),
      ...(metrics.preparedAnswer !== undefined ? { prepared_answer: metrics.preparedAnswer } : {}),
      ...(metrics.discardedAnswers !== undefined ? { discarded_answers: metrics.discardedAnswers } : {}),
      ...(metrics.endOfTurn
        ? { end_of_turn: { reason: metrics.endOfTurn.reason, probability: metrics.endOfTurn.probability, wait_ms: Math.round(metrics.endOfTurn.waitMs) } }
        : {}),
    };
    this.connection
      .sendData(JSON.stringify(wire), { topic: TURN_METRICS_TOPIC, reliable: true, destinationIdentities: [this.spec.humanIdentity] })
      .catch((error: unknown) => this.logger.debug({ err: error }, 'the turn metrics were not sent'));
  }

  private commit(message: ContextMessageCreateParams): void {
    this.commits = this.commits
      .then(() => this.events.messageCommitted(message))
      .catch((error: unknown) => this.logger.error({ err: error, role: message.role }, 'committing a message failed'));
  }

  private recordSpeech(voice: SessionVoice, seconds: number): void {
    const voices = this.dependencies.voices;
    if (!voices?.recordUsage) return;
    const metadata = { voice: voice.id, source: 'realtime', session: this.sessionId };
    voices.recordUsage(this.spec.principal, seconds, metadata).catch((error: unknown) => this.logger.error({ err: error }, 'recording speech usage failed'));
  }

  private sendError(message: string): void {
    if (!this.connection) return;
    this.connection.sendData(JSON.stringify({ message }), { topic: ERROR_TOPIC, reliable: true }).catch((error: unknown) => {
      this.logger.debug({ err: error }, 'could not send an error message');
    });
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

  /** Waits for a step of leaving, within bounds: a stuck transport must not hang `stop()`. */
  private async bounded(step: Promise<void> | undefined, what: string): Promise<void> {
    if (!step) return;
    const outcome = await settleWithin(step, SHUTDOWN_STEP_TIMEOUT_MS);
    if (outcome !== 'done') this.logger.warn({ step: what, outcome }, 'a step of stopping the agent did not finish');
  }

  /** Cancels everything at once, then leaves the room (after a terminal state has reached the room). */
  private shutdown(reason: AgentStopReason): Promise<void> {
    this.stopping ??= (async () => {
      this.logger.debug({ reason }, 'stopping the agent');
      // The human's seconds stop counting now; they are recorded (once) before the agent has stopped.
      const recording = this.conversationTime.finish(reason);
      this.countdown.stop();
      this.presence.stop();
      this.queue.length = 0;
      this.preparer.discard();
      this.interrupt('the agent stopped');
      this.listener?.close();
      for (const unsubscribe of this.unsubscribe) unsubscribe();
      if (!this.connection) return recording;
      await this.publisher?.settled();
      if (this.publisher?.terminal) await sleep(this.dependencies.tuning.terminalLingerMs);
      await this.commits;
      await this.bounded(this.output?.close(), 'unpublishing the audio track');
      await this.bounded(this.connection.leave(), 'leaving the room');
      await recording;
    })();
    return this.stopping;
  }
}
