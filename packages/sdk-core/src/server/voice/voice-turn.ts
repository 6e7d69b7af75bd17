import type { Logger } from 'pino';
import type { ContextMessageCreateParams } from '../../contract/contexts.js';
import type { RealtimeSessionConfig } from '../../contract/realtime.js';
import { UsageLimitExceededError } from '../../errors/api-error.js';
import type { AgentRoomConnection } from '../engines/media/index.js';
import type { EndOfTurnDecision, TurnMetrics } from '../kernel/ports/turn-metrics.js';
import type { Principal } from '../kernel/principal.js';
import type { AgentChat, Answer } from './answering/answer-stream.js';
import { answerWithTools } from './answering/answer-with-tools.js';
import type { Conversation } from './answering/conversation.js';
import { buildSystemPrompt } from './answering/system-prompt.js';
import type { AgentSpeaker, SpokenUtterance } from './speaker/agent-speaker.js';
import type { SessionSpeech } from './speaker/session-speech.js';
import type { AgentToolRunner } from './tools/agent-tool-runner.js';
import { toolsForModel } from './tools/agent-tool-schema.js';
import { turnToolHandler } from './tools/turn-tools.js';
import { UtteranceTranscript } from './transcript/utterance-transcript.js';
import type { PreparedAnswer } from './turn-taking/answer-preparer.js';

/** Something the agent has to do: answer the human, or say a given text. */
export type PendingTurn =
  | {
      kind: 'user';
      source: 'voice' | 'text';
      text: string;
      startedAt: Date;
      endedAt: Date;
      /** `performance.now()` when the human finished (voice: last speech; text: arrival). */
      endedAtClock: number;
      endOfSpeechDecisionMs?: number;
      sttFinalMs?: number;
      /** The answer, already asked for at the human's pause (adaptive turn detection, no tools). */
      prepared?: PreparedAnswer;
      /** Answers prepared at earlier pauses of this utterance and thrown away. */
      discardedAnswers?: number;
      /** Adaptive turn detection: how the words read at the pause that ended the turn. */
      endOfTurn?: EndOfTurnDecision;
    }
  | { kind: 'say'; text: string; receivedAtClock: number };

/** What a turn needs from the conversation running it. */
export interface TurnContext {
  sessionId: string;
  principal: Principal;
  config: RealtimeSessionConfig;
  chat: AgentChat;
  connection: Pick<AgentRoomConnection, 'sendData' | 'sendText' | 'sendTranscription' | 'identity'>;
  audioTrackSid: string;
  speaker: AgentSpeaker;
  /** Where the turn's states go (the room's agent state, for the built-in agent). */
  publisher: { setState(state: 'thinking' | 'speaking'): void };
  conversation: Conversation;
  /** The voice, the human's speech budget and its metering. */
  speech: SessionSpeech;
  commit: (message: ContextMessageCreateParams) => void;
  /** Runs the model's calls of the session's tools (`config.generative.tool_definitions`). */
  tools: AgentToolRunner;
  logger: Logger;
}

/** How a turn ended; a failure's `message` is a sentence for the human. */
export type TurnOutcome =
  | { type: 'done'; metrics: TurnMetrics }
  | { type: 'usage_limit_exceeded'; message: string; metrics: TurnMetrics }
  | { type: 'failed'; message: string; metrics: TurnMetrics };

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

/** What is known of a turn before it runs: where it came from and what listening measured. */
function startingMetrics(sessionId: string, turn: PendingTurn, index: number): TurnMetrics {
  const metrics: TurnMetrics = { session: sessionId, turn: index, source: turn.kind === 'user' ? turn.source : 'scripted', interrupted: false };
  if (turn.kind !== 'user') return metrics;
  if (turn.endOfSpeechDecisionMs !== undefined) metrics.endOfSpeechDecisionMs = turn.endOfSpeechDecisionMs;
  if (turn.sttFinalMs !== undefined) metrics.sttFinalMs = turn.sttFinalMs;
  if (turn.source === 'voice') {
    metrics.preparedAnswer = turn.prepared !== undefined;
    metrics.discardedAnswers = turn.discardedAnswers ?? 0;
  }
  if (turn.endOfTurn) metrics.endOfTurn = turn.endOfTurn;
  return metrics;
}

/** The model's answer to the conversation (the one prepared at the pause, when there is one), tools included. */
function askModel(context: TurnContext, turn: Extract<PendingTurn, { kind: 'user' }>, transcript: UtteranceTranscript, signal: AbortSignal): Answer {
  if (turn.prepared) return turn.prepared.answer;
  const { config } = context;
  const definitions = config.generative.tool_definitions;
  return answerWithTools(context.chat, {
    principal: context.principal,
    model: config.generative.llm.id,
    messages: context.conversation.messages(buildSystemPrompt(config.generative)),
    metadata: { realtime_session: context.sessionId },
    signal,
    tools: toolsForModel(definitions),
    maxToolRounds: context.tools.tuning.maxRoundsPerTurn,
    handler: turnToolHandler({
      definitions,
      runner: context.tools,
      transcript,
      streamTranscript: config.output.stream_transcript,
      conversation: context.conversation,
      commit: context.commit,
    }),
  });
}

/** What was said (all of it, or up to the interruption) is kept: on the transcription, in the conversation, committed. */
function keepSpoken(context: TurnContext, spoken: SpokenUtterance, transcript: UtteranceTranscript, interrupted: boolean): void {
  if (spoken.text) {
    void transcript.finish(spoken.text, spoken.endedAt, interrupted);
    context.conversation.add('assistant', spoken.text);
    context.commit({
      role: 'assistant',
      content: spoken.text,
      ...(spoken.startedAt ? { speaking_started_at: spoken.startedAt.toISOString() } : {}),
      speaking_ended_at: spoken.endedAt.toISOString(),
    });
  } else if (transcript.started || transcript.hasToolCalls) {
    void transcript.finish('', spoken.endedAt, interrupted);
  }
}

/** How the model's side ended, once the speech is over. */
async function answerOutcome(answer: Answer | undefined, signal: AbortSignal, metrics: TurnMetrics): Promise<TurnOutcome> {
  if (!answer) return { type: 'done', metrics };
  try {
    await answer.done;
    return { type: 'done', metrics };
  } catch (error) {
    if (signal.aborted) return { type: 'done', metrics };
    if (UsageLimitExceededError.isInstance(error)) return { type: 'usage_limit_exceeded', message: error.message, metrics };
    const message = error instanceof Error ? error.message : String(error);
    return { type: 'failed', message: `The agent could not answer: ${message}`, metrics };
  }
}

/**
 * Runs one turn: a user turn is committed and added to the conversation, the LLM is asked (state
 * `thinking`) and its answer spoken as it streams (state `speaking`); a `say` turn speaks its text. The
 * agent's transcription grows with the speech (or is sent whole when `stream_transcript` is off) and is
 * final with what the human actually heard, also when `signal` interrupts it (then marked `interrupted`).
 * Tool calls show on that transcription, run, are committed with their results, and the model is asked again
 * (bounded rounds); all rounds' text is one utterance. With speech on, a turn first checks the human's
 * `voice_synthesis_seconds`: a used-up budget ends it `usage_limit_exceeded`, unsaid.
 *
 * @example
 * const outcome = await runTurn(context, turn, 3, controller.signal);
 */
export async function runTurn(context: TurnContext, turn: PendingTurn, index: number, signal: AbortSignal): Promise<TurnOutcome> {
  const { config } = context;
  const metrics = startingMetrics(context.sessionId, turn, index);
  const endedAtClock = turn.kind === 'user' ? turn.endedAtClock : turn.receivedAtClock;
  const speechEnabled = config.output.speech_synthesis_enabled;
  const transcript = new UtteranceTranscript(context.connection, { agent: true, trackSid: speechEnabled ? context.audioTrackSid : undefined }, context.logger);
  if (turn.kind === 'user') {
    context.commit({ role: 'user', content: turn.text, speaking_started_at: turn.startedAt.toISOString(), speaking_ended_at: turn.endedAt.toISOString() });
    context.conversation.add('user', turn.text);
  }
  // A used-up speech budget says nothing more, before any token is spent.
  const refusal = speechEnabled ? await context.speech.refusal() : undefined;
  if (refusal) return { ...refusal, metrics };
  if (turn.kind === 'user') context.publisher.setState('thinking');
  const answer = turn.kind === 'user' ? askModel(context, turn, transcript, signal) : undefined;
  const voice = speechEnabled ? await context.speech.voice() : undefined;
  let spoken: SpokenUtterance;
  try {
    spoken = await context.speaker.speak({
      text: answer?.pieces ?? once(turn.text),
      voice: voice?.selection,
      signal,
      onStart: () => {
        metrics.responseMs = performance.now() - endedAtClock;
        context.publisher.setState('speaking');
      },
      onProgress: (text) => {
        if (config.output.stream_transcript) void transcript.update(text);
      },
    });
  } catch (error) {
    // Synthesis failed: the answer is abandoned (the LLM call too).
    answer?.done.catch(() => undefined);
    if (transcript.started) void transcript.finish(transcript.currentText);
    return { type: 'failed', message: `Speech synthesis failed: ${error instanceof Error ? error.message : String(error)}`, metrics };
  }
  metrics.interrupted = spoken.interrupted || signal.aborted;
  if (spoken.ttsFirstAudioMs !== undefined) metrics.ttsFirstAudioMs = spoken.ttsFirstAudioMs;
  if (answer?.firstTokenMs !== undefined) metrics.llmFirstTokenMs = answer.firstTokenMs;
  keepSpoken(context, spoken, transcript, metrics.interrupted);
  if (voice) context.speech.record(voice, spoken.audioSeconds);
  return answerOutcome(answer, signal, metrics);
}
