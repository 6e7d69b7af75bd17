import type { Logger } from 'pino';
import type { ContextMessageCreateParams } from '../../contract/contexts.js';
import type { RealtimeSessionConfig } from '../../contract/realtime.js';
import type { AgentRoomConnection, AudioOutput, RemoteAudioTrack } from '../engines/media/index.js';
import type { Speech } from '../engines/speech/index.js';
import type { TurnMetrics } from '../kernel/ports/turn-metrics.js';
import type { Principal } from '../kernel/principal.js';
import { streamAnswer, type AgentChat } from './answering/answer-stream.js';
import { Conversation } from './answering/conversation.js';
import { buildSystemPrompt } from './answering/system-prompt.js';
import { ListenerSlot } from './listener-slot.js';
import { HumanListener, type HeardUtterance, type TurnDetectionOptions, type UtteranceHandler } from './listener/human-listener.js';
import type { ListeningEngines } from './listener/listening-engines.js';
import { traceTurn } from './metrics/turn-span.js';
import { resolveTurnDetection } from './settings/turn-detection.js';
import { AgentSpeaker } from './speaker/agent-speaker.js';
import { resolveSessionVoice, type AgentVoices } from './speaker/agent-voice.js';
import { SessionSpeech } from './speaker/session-speech.js';
import type { SessionTools } from './tools/session-tools.js';
import { PreConnectAudio } from './listener/pre-connect-audio.js';
import { legacyTranscriptionReaders, UtteranceTranscript } from './transcript/utterance-transcript.js';
import { TurnQueue } from './turn-queue.js';
import { AnswerPreparer } from './turn-taking/answer-preparer.js';
import { Preemption } from './turn-taking/preemption.js';
import { runTurn, type PendingTurn, type TurnContext, type TurnOutcome } from './voice-turn.js';

/** The room side of a conversation: who listens, where the agent's voice and words go, what it reports. */
export interface VoicePipelineRoom {
  connection: Pick<AgentRoomConnection, 'sendData' | 'sendText' | 'sendTranscription' | 'identity' | 'onByteStream'>;
  output: AudioOutput;
  outputSampleRate: number;
  humanIdentity: string;
  /** The agent's state as the room sees it. */
  states: { setState(state: 'listening' | 'thinking' | 'speaking'): void; readonly terminal: boolean };
  /** Tells the human something went wrong (the `error` topic). */
  tell(message: string): void;
  /** A turn ended the conversation: a used-up limit, or a crash. */
  ended(reason: 'usage_limit_exceeded' | 'failed', detail: string): void;
  /** Every turn's measurements (the `turn_metrics` topic, the server's metrics). */
  measured(metrics: TurnMetrics): void;
}

export interface VoicePipelineOptions {
  sessionId: string;
  principal: Principal;
  /** The conversation's settings now (they may change while it runs). */
  config(): RealtimeSessionConfig;
  speech: Pick<Speech, 'tts' | 'stt' | 'vad'>;
  chat: AgentChat;
  voices?: AgentVoices | undefined;
  tools: SessionTools;
  /** The server's turn detection, under the session's `input.turn_detection`. */
  turnDetection: TurnDetectionOptions;
  /** Committed messages (the session's context). */
  commit(message: ContextMessageCreateParams): void;
  logger: Logger;
}

/**
 * One spoken conversation, the walk of a turn top to bottom: the human's track is listened to (VAD, STT,
 * adaptive end of turn: `listen`), each utterance is taken or not and may have its answer prepared at a pause
 * (`speechStarted`), the finished utterance becomes a turn (`heard`), turns run one at a time (`TurnQueue`):
 * the model answers (tools included) and the speaker says it, paced, until barge-in interrupts (`runTurn`);
 * every turn's measurements are reported. The built-in agent is this plus the room's lifecycle.
 *
 * @example
 * const pipeline = new VoicePipeline(options, room);
 * await pipeline.warmUp();
 * pipeline.listen(track);
 */
export class VoicePipeline {
  readonly conversation: Conversation;
  private readonly speaker: AgentSpeaker;
  private readonly speech: SessionSpeech;
  private readonly preparer: AnswerPreparer;
  private readonly listening: ListenerSlot;
  private readonly preConnect = new PreConnectAudio();
  private readonly detachPreConnect: () => void;
  private readonly queue: TurnQueue;
  private readonly logger: Logger;
  private warm: () => void = () => undefined;
  private closed = false;

  constructor(
    private readonly options: VoicePipelineOptions,
    private readonly room: VoicePipelineRoom,
  ) {
    this.logger = options.logger;
    this.conversation = new Conversation(options.config().generative.context.latest_messages);
    this.speaker = new AgentSpeaker(options.speech.tts, room.output, room.outputSampleRate, this.logger);
    this.speech = new SessionSpeech({
      tts: options.speech.tts,
      voices: options.voices,
      principal: options.principal,
      choice: () => {
        const generative = options.config().generative;
        return {
          key: generative.voice_override?.id ?? generative.persona?.voice ?? '',
          resolve: () => resolveSessionVoice(generative, options.principal, options.voices, this.logger),
        };
      },
      usage: { source: 'realtime', session: options.sessionId },
      logger: this.logger,
    });
    this.preparer = new AnswerPreparer((text, signal) => this.ask(text, signal));
    this.listening = new ListenerSlot(options.speech, this.logger, (track, engines) => this.listener(track, engines));
    this.detachPreConnect = this.preConnect.attach(room.connection);
    const ready = new Promise<void>((resolve) => (this.warm = resolve));
    this.queue = new TurnQueue(
      { run: (turn, index, signal) => this.run(turn, index, signal), idle: () => room.states.setState('listening'), crashed: (error) => this.crashed(error) },
      ready,
    );
  }

  /** Loads the listening engines and warms the voice; turns wait for it. */
  async warmUp(): Promise<void> {
    try {
      await Promise.all([this.listening.load(), this.options.config().output.speech_synthesis_enabled ? this.speech.warmUp() : undefined]);
    } finally {
      this.warm();
    }
  }

  /** Listens to the human's track (a newer one replaces it), led by what they said before it reached the agent. */
  listen(track: RemoteAudioTrack): void {
    this.listening.listen(this.preConnect.withBuffer(track));
  }

  /** Says `text` after the turns waiting (`first`: before them, as a greeting). */
  say(text: string, first = false): void {
    const turn: PendingTurn = { kind: 'say', text, receivedAtClock: performance.now() };
    if (first) this.queue.pushFirst(turn);
    else this.queue.push(turn);
  }

  /** A typed message: echoed as the human's final transcription, then answered (interrupting when allowed). */
  typed(text: string): void {
    const now = new Date();
    void new UtteranceTranscript(this.room.connection, { agent: false, speaker: this.room.humanIdentity, createdAt: now }, this.logger).finish(text, now);
    if (this.options.config().input.interruptable) this.queue.interrupt('the human typed a message');
    this.queue.push({ kind: 'user', source: 'text', text, startedAt: now, endedAt: now, endedAtClock: performance.now() });
  }

  /** Stops listening and answering: the running turn is aborted, the waiting ones dropped. */
  close(reason: string): void {
    this.closed = true;
    this.queue.stop(reason);
    this.preparer.discard();
    this.listening.close();
    this.detachPreConnect();
  }

  /** The turn detection now: the session's over the server's. */
  private turnDetection(): TurnDetectionOptions {
    return resolveTurnDetection(this.options.turnDetection, this.options.config().input.turn_detection);
  }

  private listener(track: RemoteAudioTrack, engines: ListeningEngines & { vad: NonNullable<ListeningEngines['vad']> }): HumanListener {
    if (!engines.stt) {
      this.room.tell(
        `Speech input needs a speech-to-text provider, and none is available on this server (${engines.sttUnavailableReason}). Type your messages instead.`,
      );
    }
    return new HumanListener({
      ...engines,
      track,
      turnDetection: this.turnDetection(),
      logger: this.logger,
      callbacks: {
        speechStarted: (startedAt) => this.speechStarted(track, startedAt),
        // Barge-in as soon as speech is likely: the agent's voice stops before the speech is confirmed.
        speechLikely: () => {
          if (this.queue.busy && this.options.config().input.interruptable && !this.closed) this.queue.interrupt('the human started speaking');
        },
        failed: (error) => {
          this.logger.warn({ err: error }, 'speech recognition failed');
          this.room.tell(`Speech recognition failed: ${error.message}`);
        },
      },
    });
  }

  /** Barge-in and the listening policy: whether and how to take an utterance that just started. */
  private speechStarted(track: RemoteAudioTrack, startedAt: Date): UtteranceHandler | undefined {
    if (this.closed || this.room.states.terminal) return undefined;
    const input = this.options.config().input;
    if (this.queue.busy) {
      if (input.interruptable) this.queue.interrupt('the human spoke');
      else if (!input.parallel_listening) return undefined;
    }
    const transcript = new UtteranceTranscript(
      this.room.connection,
      {
        agent: false,
        speaker: track.participant.identity,
        trackSid: track.trackSid,
        legacyReaders: legacyTranscriptionReaders(track.participant),
        createdAt: startedAt,
      },
      this.logger,
    );
    const preemption = new Preemption(this.preparer, {
      // Not while a turn runs or waits (the conversation would differ), and never with tools (their calls act
      // on the world before the turn is confirmed).
      mayPrepare: () => {
        const settings = this.turnDetection();
        const tools = this.options.config().generative.tool_definitions.length > 0;
        return settings.preemptive && settings.mode === 'adaptive' && !this.closed && !this.room.states.terminal && this.queue.idle && !tools;
      },
      version: () => this.conversation.version,
    });
    return {
      interim: (text) => void transcript.update(text),
      // The segment's final may read other words than the decoder's early ones: the answer to those is thrown away.
      pausing: (text) => preemption.pause(text),
      paused: (pause) => preemption.pause(pause.text),
      resumed: () => preemption.resumed(),
      finished: (utterance) => this.heard(utterance, transcript, preemption),
    };
  }

  /** The human's turn is over: its final words are shown and become a turn (with the answer prepared for them). */
  private heard(utterance: HeardUtterance, transcript: UtteranceTranscript, preemption: Preemption): void {
    const { prepared, discardedAnswers } = preemption.finish(utterance.text, this.queue.idle);
    if (!utterance.text) {
      if (transcript.started) void transcript.finish('', utterance.endedAt);
      return;
    }
    void transcript.finish(utterance.text, utterance.endedAt);
    if (this.closed || this.room.states.terminal) {
      prepared?.controller.abort();
      return;
    }
    this.queue.push({
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

  /** An answer asked for at a pause: the conversation so far and the words heard. */
  private ask(text: string, signal: AbortSignal) {
    const generative = this.options.config().generative;
    return streamAnswer(this.options.chat, {
      principal: this.options.principal,
      model: generative.llm.id,
      messages: [...this.conversation.messages(buildSystemPrompt(generative)), { role: 'user', content: text }],
      metadata: { realtime_session: this.options.sessionId, prepared: true },
      signal,
    });
  }

  /** Runs one turn inside its trace span, then reports what it measured and how it ended. */
  private async run(turn: PendingTurn, index: number, signal: AbortSignal): Promise<void> {
    const outcome = await traceTurn(turn, { sessionId: this.options.sessionId, index }, signal, () => runTurn(this.turnContext(), turn, index, signal));
    this.logger.debug({ ...outcome.metrics }, 'agent turn');
    this.room.measured(outcome.metrics);
    this.settle(outcome, index);
  }

  private settle(outcome: TurnOutcome, index: number): void {
    if (outcome.type === 'usage_limit_exceeded') {
      this.room.tell(`Usage limit reached: ${outcome.message}`);
      this.room.ended('usage_limit_exceeded', outcome.message);
    } else if (outcome.type === 'failed') {
      this.logger.warn({ reason: outcome.message, turn: index }, 'agent turn failed');
      this.room.tell(outcome.message);
    }
  }

  private turnContext(): TurnContext {
    const { options, room } = this;
    return {
      sessionId: options.sessionId,
      principal: options.principal,
      config: options.config(),
      chat: options.chat,
      connection: room.connection,
      audioTrackSid: room.output.trackSid,
      speaker: this.speaker,
      publisher: room.states,
      conversation: this.conversation,
      speech: this.speech,
      commit: (message) => options.commit(message),
      tools: options.tools.runner,
      logger: this.logger,
    };
  }

  private crashed(error: unknown): void {
    this.logger.error({ err: error }, 'the agent failed');
    this.room.tell('The agent failed and has to stop.');
    this.room.ended('failed', error instanceof Error ? error.message : String(error));
  }
}
