/**
 * The data packets, agent metadata and app arguments the connector checks, as the contract's `zod/mini` schemas
 * (`contract/sdk.ts`) parse them, without zod (see `checks.ts`): the contract's parsers answer the same, which
 * `received-checks.test.ts` holds them to.
 */
import type {
  AgentParticipantMetadata,
  AgentTurnMetrics,
  DataPacket,
  DataTopic,
  SDKAgentState,
  SDKConnectOptions,
  SDKSendChatMessageParams,
  SDKSessionTranscription,
  ToolCallMessage,
} from '../../contract/sdk.js';
import { LEGACY_CHAT_TOPIC } from '../../contract/wire.js';
import type { ToolDefinition } from '../../contract/tools.js';
import type { RealtimeSessionConfigCreate } from '../../contract/realtime.js';
import {
  array,
  boolean,
  custom,
  int,
  isRecord,
  literal,
  nullable,
  number,
  object,
  oneOf,
  optional,
  parseWith,
  record,
  string,
  tagged,
  union,
  unknown,
  type Check,
} from './checks.js';
import { runtimeApiMessage } from './runtime-api-checks.js';

type Payload<Topic extends DataTopic> = Extract<DataPacket, { topic: Topic }>['payload'];

const nonEmpty = string(1);
const chatMessageParams = object<SDKSendChatMessageParams>({ text: string(1, 10_000) });
const functionCall = object({ name: string(), arguments: record });

const transcription = object<SDKSessionTranscription>({
  id: string(),
  agent: boolean,
  final: boolean,
  created_at: string(),
  speaking_ended_at: nullable(string()),
  text: string(),
  tool_calls: optional(array(object({ id: string(), type: literal('function'), function: functionCall }))),
  interrupted: optional(boolean),
});

const toolCallMessage = tagged<ToolCallMessage>({
  tool_call_request: object({
    type: literal('tool_call_request'),
    payload: object({
      type: literal('initiate_request'),
      tool_definition: custom<ToolDefinition>((value) => isRecord(value) && typeof value.id === 'string' && typeof value.name === 'string'),
      tool_call: object({ id: string(), tool_definition_id: string(), function: functionCall }),
    }),
  }),
  initiate_ack: object({ type: literal('initiate_ack'), call_id: string() }),
  result: object({ type: literal('result'), call_id: string(), result: nullable(unknown), error: nullable(string()) }),
  cancel: object({ type: literal('cancel'), call_id: string() }),
});

const ms = optional(number(0));
const turnMetrics = object<AgentTurnMetrics>({
  turn: number(),
  source: oneOf({ voice: 1, text: 1, scripted: 1 }),
  end_of_speech_decision_ms: ms,
  stt_final_ms: ms,
  llm_first_token_ms: ms,
  tts_first_audio_ms: ms,
  response_ms: ms,
  prepared_answer: optional(boolean),
  discarded_answers: optional(int(0)),
  end_of_turn: optional(
    object({
      reason: oneOf({ empty: 1, filler: 1, continuation: 1, short: 1, reply: 1, question: 1, statement: 1, unsure: 1 }),
      probability: number(0, 1),
      wait_ms: number(0),
    }),
  ),
  interrupted: boolean,
});

/** The check of each data topic (`DataTopicSchemas` of the contract). */
const topicChecks: { [Topic in DataTopic]: Check<Payload<Topic>> } = {
  message: transcription,
  error: object({ message: string() }),
  chat_input: chatMessageParams,
  tool_call: toolCallMessage,
  runtime_api: runtimeApiMessage,
  turn_metrics: turnMetrics,
  [LEGACY_CHAT_TOPIC]: object({
    id: string(),
    timestamp: number(),
    message: string(0, 10_000),
    ignoreLegacy: optional(boolean),
    editTimestamp: optional(number()),
  }),
  transcript_resume: object({ after: nullable(string(0, 64)) }),
};

const agentState: Check<SDKAgentState> = oneOf({ warmup: 1, listening: 1, thinking: 1, speaking: 1, time_limit_exceeded: 1, usage_limit_exceeded: 1 });
const agentMetadata = object<AgentParticipantMetadata>({ agent_state: agentState, remaining_seconds: nullable(number()) });

const connectOptions = union<SDKConnectOptions>(
  object<Extract<SDKConnectOptions, { connection_details: unknown }>>({ connection_details: object({ url: nonEmpty, token: nonEmpty }) }),
  object<Extract<SDKConnectOptions, { config: unknown }>>({ token: nonEmpty, config: custom<RealtimeSessionConfigCreate>(isRecord) }),
);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One data packet, UTF-8 JSON on a known topic, as `parseDataPacket` answers it: undefined for unknown topics and malformed payloads. */
export function checkDataPacket(topic: string | undefined, text: string): DataPacket | undefined {
  if (topic === undefined || !Object.hasOwn(topicChecks, topic)) return undefined;
  const payload = parseWith(topicChecks[topic as DataTopic] as Check<unknown>, parseJson(text));
  return payload === undefined ? undefined : ({ topic, payload } as DataPacket);
}

/** The agent participant's metadata as `parseAgentMetadata` answers it: undefined when absent or malformed. */
export function checkAgentMetadata(text: string | undefined): AgentParticipantMetadata | undefined {
  return text ? parseWith(agentMetadata, parseJson(text)) : undefined;
}

/** `connect()`'s options, as `SDKConnectOptions` parses them; undefined when they are not. */
export const checkConnectOptions = (options: unknown): SDKConnectOptions | undefined => parseWith(connectOptions, options);

/** `sendChatMessage()`'s argument, as `SDKSendChatMessageParams` parses it; undefined when it is not. */
export const checkChatMessageParams = (params: unknown): SDKSendChatMessageParams | undefined => parseWith(chatMessageParams, params);
