import { z } from 'zod';

/**
 * OpenAI's Realtime API on `/v1/realtime` (websocket), GA protocol: the session configuration a client sends in
 * `session.update` (strict: a field this server does not serve is refused by name, never dropped) and the session
 * and conversation items the server reports. Shapes as the `openai` package's `realtime` types; audio is PCM16 24 kHz.
 */

/** The audio formats served: `audio/pcm` at 24 kHz (the engines' rate) and G.711 at 8 kHz, `audio/pcmu` (µ-law), `audio/pcma` (A-law). */
export const RealtimeAudioFormat = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('audio/pcm'), rate: z.literal(24_000).optional() }),
  z.strictObject({ type: z.literal('audio/pcmu') }),
  z.strictObject({ type: z.literal('audio/pcma') }),
]);
export type RealtimeAudioFormat = z.infer<typeof RealtimeAudioFormat>;

/** A session's audio format as the server reports it. */
export const RealtimeSessionAudioFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('audio/pcm'), rate: z.literal(24_000) }),
  z.object({ type: z.literal('audio/pcmu') }),
  z.object({ type: z.literal('audio/pcma') }),
]);

/**
 * Server VAD (`server_vad`, `semantic_vad`): the platform's VAD and adaptive end of turn. `semantic_vad` and a
 * `server_vad` without `silence_duration_ms` are adaptive (the words decide the wait); `silence_duration_ms` is a fixed
 * silence; `eagerness` sets the longest wait (low 2 s, medium/auto 1.2 s, high 0.6 s). Null: the client commits.
 */
export const RealtimeTurnDetection = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('server_vad'),
    threshold: z.number().min(0).max(1).optional(),
    prefix_padding_ms: z.number().int().min(0).max(5000).optional(),
    silence_duration_ms: z.number().int().min(100).max(5000).optional(),
    create_response: z.boolean().optional(),
    interrupt_response: z.boolean().optional(),
    idle_timeout_ms: z.null().optional(),
  }),
  z.strictObject({
    type: z.literal('semantic_vad'),
    eagerness: z.enum(['low', 'medium', 'high', 'auto']).optional(),
    create_response: z.boolean().optional(),
    interrupt_response: z.boolean().optional(),
  }),
]);
export type RealtimeTurnDetection = z.infer<typeof RealtimeTurnDetection>;

/** Transcription of the human's audio: the server's STT engine, whatever OpenAI model is named. */
export const RealtimeInputTranscription = z.strictObject({ model: z.string().max(200).optional(), language: z.string().max(20).optional() });

/** A function the model may call; the client runs it and answers with a `function_call_output` item. */
export const RealtimeFunctionTool = z.strictObject({
  type: z.literal('function'),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  description: z.string().max(4096).optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
});
export type RealtimeFunctionTool = z.infer<typeof RealtimeFunctionTool>;

export const RealtimeToolChoice = z.union([z.enum(['auto', 'none', 'required']), z.strictObject({ type: z.literal('function'), name: z.string() })]);
export type RealtimeToolChoice = z.infer<typeof RealtimeToolChoice>;

/**
 * OpenAI's dashboard traces: accepted and reported back, with no effect here (the platform's own OpenTelemetry spans
 * cover every model call of the session).
 */
export const RealtimeTracing = z.union([
  z.literal('auto'),
  z.strictObject({
    workflow_name: z.string().max(200).optional(),
    group_id: z.string().max(200).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  z.null(),
]);

const OutputModalities = z.union([z.tuple([z.literal('audio')]), z.tuple([z.literal('text')])]);

/** What `session.update` may set (every field optional: the rest keeps its value). */
export const RealtimeSessionUpdate = z.strictObject({
  type: z.literal('realtime').optional(),
  model: z.string().min(1).max(200).optional(),
  instructions: z.string().max(100_000).optional(),
  output_modalities: OutputModalities.optional(),
  audio: z
    .strictObject({
      input: z
        .strictObject({
          format: RealtimeAudioFormat.optional(),
          transcription: RealtimeInputTranscription.nullable().optional(),
          turn_detection: RealtimeTurnDetection.nullable().optional(),
          noise_reduction: z.null().optional(),
        })
        .optional(),
      output: z
        .strictObject({
          format: RealtimeAudioFormat.optional(),
          voice: z.string().min(1).max(200).optional(),
          speed: z.literal(1).optional(),
        })
        .optional(),
    })
    .optional(),
  tools: z.array(RealtimeFunctionTool).max(128).optional(),
  tool_choice: RealtimeToolChoice.optional(),
  parallel_tool_calls: z.boolean().optional(),
  max_output_tokens: z.union([z.number().int().min(1).max(4096), z.literal('inf')]).optional(),
  tracing: RealtimeTracing.optional(),
});
export type RealtimeSessionUpdate = z.infer<typeof RealtimeSessionUpdate>;

/** The session as the server reports it (`session.created`, `session.updated`). */
export const RealtimeSessionObject = z.object({
  type: z.literal('realtime'),
  object: z.literal('realtime.session'),
  id: z.string(),
  model: z.string(),
  instructions: z.string(),
  output_modalities: z.array(z.enum(['audio', 'text'])),
  audio: z.object({
    input: z.object({
      format: RealtimeSessionAudioFormat,
      transcription: RealtimeInputTranscription.nullable(),
      turn_detection: RealtimeTurnDetection.nullable(),
      noise_reduction: z.null(),
    }),
    output: z.object({ format: RealtimeSessionAudioFormat, voice: z.string(), speed: z.number() }),
  }),
  tools: z.array(RealtimeFunctionTool),
  tool_choice: RealtimeToolChoice,
  parallel_tool_calls: z.boolean(),
  max_output_tokens: z.union([z.number().int(), z.literal('inf')]),
  tracing: RealtimeTracing,
  expires_at: z.number().int(),
});
export type RealtimeSessionObject = z.infer<typeof RealtimeSessionObject>;

const ItemCommon = {
  id: z.string().min(1).max(64).optional(),
  object: z.literal('realtime.item').optional(),
  status: z.enum(['completed', 'incomplete', 'in_progress']).optional(),
};

const InputText = z.strictObject({ type: z.literal('input_text'), text: z.string() });
const InputAudio = z.strictObject({ type: z.literal('input_audio'), audio: z.string().nullable().optional(), transcript: z.string().nullable().optional() });
const OutputText = z.strictObject({ type: z.literal('output_text'), text: z.string() });
const OutputAudio = z.strictObject({ type: z.literal('output_audio'), audio: z.string().nullable().optional(), transcript: z.string().nullable().optional() });

/** A conversation item as a client creates it (`conversation.item.create`, `response.create`'s `input`). */
export const RealtimeItemInput = z.discriminatedUnion('type', [
  z.discriminatedUnion('role', [
    z.strictObject({ ...ItemCommon, type: z.literal('message'), role: z.literal('system'), content: z.array(InputText).min(1) }),
    z.strictObject({ ...ItemCommon, type: z.literal('message'), role: z.literal('user'), content: z.array(z.union([InputText, InputAudio])).min(1) }),
    z.strictObject({ ...ItemCommon, type: z.literal('message'), role: z.literal('assistant'), content: z.array(z.union([OutputText, OutputAudio])).min(1) }),
  ]),
  z.strictObject({ ...ItemCommon, type: z.literal('function_call'), call_id: z.string().min(1).optional(), name: z.string().min(1), arguments: z.string() }),
  z.strictObject({ ...ItemCommon, type: z.literal('function_call_output'), call_id: z.string().min(1), output: z.string() }),
]);
export type RealtimeItemInput = z.infer<typeof RealtimeItemInput>;

const ItemContent = z.object({
  type: z.enum(['input_text', 'input_audio', 'output_text', 'output_audio']),
  text: z.string().optional(),
  transcript: z.string().nullable().optional(),
});

/** A conversation item as the server reports it (audio bytes are not echoed back). */
export const RealtimeItem = z.object({
  id: z.string(),
  object: z.literal('realtime.item'),
  type: z.enum(['message', 'function_call', 'function_call_output']),
  status: z.enum(['completed', 'incomplete', 'in_progress']),
  role: z.enum(['system', 'user', 'assistant']).optional(),
  content: z.array(ItemContent).optional(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  output: z.string().optional(),
});
export type RealtimeItem = z.infer<typeof RealtimeItem>;
export type RealtimeItemContent = z.infer<typeof ItemContent>;
