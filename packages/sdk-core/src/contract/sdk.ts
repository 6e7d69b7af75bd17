/**
 * Client-side enumerations (spec part 2) and the messages an agent and a client exchange inside a
 * realtime session's LiveKit room (`docs/WIRE-PROTOCOL.md`).
 *
 * Written with `zod/mini` (light for browser apps that parse with them); the browser connector checks what it receives
 * without zod, against these types (`realtime/received/`, held to these schemas by a test; decision 0121). Types
 * that come from the REST contract are imported as types only.
 */
import * as z from 'zod/mini';
import { RuntimeApiEnvelope } from './graph/runtime-api.js';
import {
  CHAT_INPUT_TOPIC,
  ERROR_TOPIC,
  LEGACY_CHAT_TOPIC,
  MESSAGE_TOPIC,
  RUNTIME_API_TOPIC,
  TOOL_CALL_TOPIC,
  TRANSCRIPT_RESUME_TOPIC,
  TURN_METRICS_TOPIC,
} from './wire.js';
import type { RealtimeSessionConfigCreate } from './realtime.js';
import type { ToolDefinition } from './tools.js';

const registry = z.globalRegistry;
const NonEmpty = z.string().check(z.minLength(1));
const JsonObject = z.record(z.string(), z.unknown());

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where the client is in joining a session. `resuming` (Palaver extension) is a joined session whose connection
 * dropped and is coming back (see {@link SDKResumeReason}); the spec's clients show it as `connecting`.
 */
export const SDKConnectionState = z
  .enum(['not_connected', 'connecting', 'waiting_for_agent', 'connected', 'resuming'])
  .register(registry, { id: 'SDKConnectionState' });
export type SDKConnectionState = z.infer<typeof SDKConnectionState>;

/**
 * Why a session is `resuming` (Palaver extension): `network` when the media connection dropped (offline, ICE
 * failed, the laptop slept) and LiveKit reconnects it; `signal` when only the signalling socket dropped and is
 * resumed while media may still flow.
 */
export const SDKResumeReason = z.enum(['network', 'signal']).register(registry, { id: 'SDKResumeReason' });
export type SDKResumeReason = z.infer<typeof SDKResumeReason>;

/**
 * A client's request, once its connection resumed, for the transcript lines it may have missed (topic
 * `transcript_resume`, Palaver extension): the agent re-sends on `message`, oldest first, the latest version of every
 * line it last sent at or after `after` (the `created_at` the agent gave the client's oldest line not yet final, else
 * its newest line: a time on the agent's clock); null asks for all. Lines are upserted by (`id`, `agent`), so a line
 * seen twice shows once.
 */
export const TranscriptResumeRequest = z.object({ after: z.nullable(z.string().check(z.maxLength(64))) }).register(registry, { id: 'TranscriptResumeRequest' });
export type TranscriptResumeRequest = z.infer<typeof TranscriptResumeRequest>;

/** What the agent is doing; `time_limit_exceeded` and `usage_limit_exceeded` are terminal. */
export const SDKAgentState = z
  .enum(['warmup', 'listening', 'thinking', 'speaking', 'time_limit_exceeded', 'usage_limit_exceeded'])
  .register(registry, { id: 'SDKAgentState' });
export type SDKAgentState = z.infer<typeof SDKAgentState>;

/** A tool call as carried by a transcription (same shape as a context message's tool call). */
export const SDKToolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: JsonObject }),
});

/**
 * One utterance, agent or human. It is re-sent as it grows with the same `id`; the client upserts by
 * (`id`, `agent`). `speaking_ended_at` is null while the utterance is still being spoken.
 */
export const SDKSessionTranscription = z
  .object({
    id: z.string(),
    agent: z.boolean(),
    final: z.boolean(),
    created_at: z.string(),
    speaking_ended_at: z.nullable(z.string()),
    text: z.string(),
    tool_calls: z.optional(z.array(SDKToolCall)),
    /**
     * Palaver extension: `true` on the agent's final line when it was cut before it was all said (the human spoke
     * or typed over it, or the call ended); `text` is then what the human heard, often ending mid-sentence.
     * Absent otherwise.
     */
    interrupted: z.optional(z.boolean()),
  })
  .register(registry, { id: 'SDKSessionTranscription' });
export type SDKSessionTranscription = z.infer<typeof SDKSessionTranscription>;

/** A typed user turn (topic `chat_input`). */
export const SDKSendChatMessageParams = z.object({ text: NonEmpty.check(z.maxLength(10_000)) }).register(registry, { id: 'SDKSendChatMessageParams' });
export type SDKSendChatMessageParams = z.infer<typeof SDKSendChatMessageParams>;

/**
 * LiveKit's older chat packet (`lk-chat-topic`), as its components sent chat before text streams and still send
 * beside them with `ignoreLegacy: true` (then the `lk.chat` stream carries the same message).
 */
export const LegacyChatMessage = z.object({
  id: z.string(),
  timestamp: z.number(),
  message: z.string().check(z.maxLength(10_000)),
  ignoreLegacy: z.optional(z.boolean()),
  editTimestamp: z.optional(z.number()),
});
export type LegacyChatMessage = z.infer<typeof LegacyChatMessage>;

/** Join with ready connection details, or with a usage token and a config to start the session with. */
export const SDKConnectOptions = z.union([
  z.object({ connection_details: z.object({ url: NonEmpty, token: NonEmpty }) }),
  z.object({
    token: NonEmpty,
    // Validated by the server on start; the browser only checks it is an object.
    config: z.custom<RealtimeSessionConfigCreate>((value) => isRecord(value)),
  }),
]);
export type SDKConnectOptions = z.infer<typeof SDKConnectOptions>;

/** Agent participant metadata (JSON), updated on every change. */
export const AgentParticipantMetadata = z.object({
  agent_state: SDKAgentState,
  remaining_seconds: z.nullable(z.number()),
});
export type AgentParticipantMetadata = z.infer<typeof AgentParticipantMetadata>;

/** Payload of the `error` topic. */
export const AgentErrorPayload = z.object({ message: z.string() });

/** A client-side tool call: the tool call shape of spec part 6. */
export const ClientToolCall = z.object({
  id: z.string(),
  tool_definition_id: z.string(),
  function: z.object({ name: z.string(), arguments: JsonObject }),
});
export type ClientToolCall = z.infer<typeof ClientToolCall>;

/** Messages of the `tool_call` topic (tools with a `client_app` destination), tagged by `type`. */
export const ToolCallMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('tool_call_request'),
    payload: z.object({
      type: z.literal('initiate_request'),
      // Checked loosely: the agent sends the stored ToolDefinition, already validated by the server.
      tool_definition: z.custom<ToolDefinition>((value) => isRecord(value) && typeof value.id === 'string' && typeof value.name === 'string'),
      tool_call: ClientToolCall,
    }),
  }),
  /** Client -> agent within 5 s of the request. */
  z.object({ type: z.literal('initiate_ack'), call_id: z.string() }),
  /** Client -> agent within 60 s; exactly one of `result` and `error` is non-null. */
  z.object({ type: z.literal('result'), call_id: z.string(), result: z.nullable(z.unknown()), error: z.nullable(z.string()) }),
  /** Agent -> client: an interruption cancelled the call. */
  z.object({ type: z.literal('cancel'), call_id: z.string() }),
]);
export type ToolCallMessage = z.infer<typeof ToolCallMessage>;

/** Messages of the `runtime_api` topic (app runs), tagged by `type`: see `graph/runtime-api.ts`. */
export const RuntimeApiMessage = RuntimeApiEnvelope;
export type RuntimeApiMessage = RuntimeApiEnvelope;

const Ms = z.optional(z.number().check(z.nonnegative()));

/**
 * How the turn detector read the words at the human's last pause (adaptive turn detection): `question`,
 * `statement` and `reply` read as finished; `continuation` (a conjunction, a preposition, an article...) and
 * `filler` as going on; `short` (a word or two) and `unsure` (the recogniser was unsure of the ending) in
 * between; `empty` when no words were heard.
 */
export const EndOfTurnReason = z.enum(['empty', 'filler', 'continuation', 'short', 'reply', 'question', 'statement', 'unsure']);
export type EndOfTurnReason = z.infer<typeof EndOfTurnReason>;

/** The turn detector's reading at the pause that ended the turn, and the silence it waited for. */
export const EndOfTurnReading = z.object({
  reason: EndOfTurnReason,
  /** How likely the words ended the turn, 0..1. */
  probability: z.number().check(z.gte(0), z.lte(1)),
  /** The silence after the last speech that ended the turn, in milliseconds. */
  wait_ms: z.number().check(z.nonnegative()),
});
export type EndOfTurnReading = z.infer<typeof EndOfTurnReading>;

/**
 * Topic `turn_metrics` (Palaver extension): the agent's timings of one turn, sent when the turn ends.
 * Milliseconds; a stage the turn did not have is absent (a typed turn has no VAD or STT).
 */
export const AgentTurnMetrics = z.object({
  /** 0-based within the session. */
  turn: z.number(),
  source: z.enum(['voice', 'text', 'scripted']),
  /** Last speech -> the decision that the human's turn is over (the turn detector's wait). */
  end_of_speech_decision_ms: Ms,
  /** The decision -> the final transcript. */
  stt_final_ms: Ms,
  /** The model request -> its first text. */
  llm_first_token_ms: Ms,
  /** The first text segment -> its first audio. */
  tts_first_audio_ms: Ms,
  /** The human's end of speech (or the typed message) -> the first audio leaving the agent. */
  response_ms: Ms,
  /** The answer was prepared at the human's pause and played when the turn ended. */
  prepared_answer: z.optional(z.boolean()),
  /** Answers prepared at earlier pauses of the utterance and thrown away (the human went on, or was heard otherwise). */
  discarded_answers: z.optional(z.int().check(z.nonnegative())),
  /** Adaptive turn detection: how the words read at the pause that ended the turn. */
  end_of_turn: z.optional(EndOfTurnReading),
  interrupted: z.boolean(),
});
export type AgentTurnMetrics = z.infer<typeof AgentTurnMetrics>;

/** Schema of each data-packet topic. */
export const DataTopicSchemas = {
  [MESSAGE_TOPIC]: SDKSessionTranscription,
  [ERROR_TOPIC]: AgentErrorPayload,
  [CHAT_INPUT_TOPIC]: SDKSendChatMessageParams,
  [TOOL_CALL_TOPIC]: ToolCallMessage,
  [RUNTIME_API_TOPIC]: RuntimeApiMessage,
  [TURN_METRICS_TOPIC]: AgentTurnMetrics,
  [LEGACY_CHAT_TOPIC]: LegacyChatMessage,
  [TRANSCRIPT_RESUME_TOPIC]: TranscriptResumeRequest,
} as const;
export type DataTopic = keyof typeof DataTopicSchemas;

/** A parsed data packet, tagged by its LiveKit topic. */
export type DataPacket = { [T in DataTopic]: { topic: T; payload: z.infer<(typeof DataTopicSchemas)[T]> } }[DataTopic];

function isDataTopic(topic: string): topic is DataTopic {
  return Object.hasOwn(DataTopicSchemas, topic);
}

/**
 * Parses one data packet: UTF-8 JSON on a known topic. Answers undefined for unknown topics and
 * malformed payloads, so a newer agent cannot crash an older client.
 *
 * @example
 * const packet = parseDataPacket(topic, new TextDecoder().decode(bytes));
 * if (packet?.topic === 'message') upsertTranscription(packet.payload);
 */
export function parseDataPacket(topic: string | undefined, text: string): DataPacket | undefined {
  if (topic === undefined || !isDataTopic(topic)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const result = DataTopicSchemas[topic].safeParse(json);
  return result.success ? ({ topic, payload: result.data } as DataPacket) : undefined;
}

/**
 * Parses the agent participant's metadata; undefined when absent or malformed.
 *
 * @example
 * const metadata = parseAgentMetadata(agent.metadata);
 * if (metadata) render(metadata.agent_state, metadata.remaining_seconds);
 */
export function parseAgentMetadata(text: string | undefined): AgentParticipantMetadata | undefined {
  if (!text) return undefined;
  try {
    const result = AgentParticipantMetadata.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
