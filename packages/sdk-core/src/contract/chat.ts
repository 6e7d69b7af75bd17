import { z } from 'zod';
import { ChatChoiceLogprobs, chatParameterFields } from './chat-parameters.js';
import { FreeObject } from './common.js';
import { defineRoute } from './define-route.js';

/** Largest `max_tokens` a chat completion may ask for (spec part 8). */
export const MAX_COMPLETION_TOKENS = 4096;
/** Function names of tools: letters, digits, `_` and `-`, at most 64 (spec part 8). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX_MESSAGES = 2048;
const MAX_TOOLS = 128;

export const ChatTextPart = z.object({ type: z.literal('text'), text: z.string().max(1_000_000) }).meta({ id: 'ChatTextPart' });

export const ChatAudioPart = z
  .object({
    type: z.literal('input_audio'),
    input_audio: z.object({
      data: z.base64().describe('Base64-encoded audio.'),
      format: z.enum(['wav', 'mp3', 'ogg']),
    }),
  })
  .meta({ id: 'ChatAudioPart' });

/** A URI or a base64 `data:` URI. */
const MediaUrl = z.object({
  url: z.url().describe('A URI or a base64 data URI.'),
  detail: z.enum(['auto', 'low', 'high']).optional(),
});

export const ChatImagePart = z.object({ type: z.literal('image_url'), image_url: MediaUrl }).meta({ id: 'ChatImagePart' });
export const ChatVideoPart = z.object({ type: z.literal('video_url'), video_url: MediaUrl }).meta({ id: 'ChatVideoPart' });

export const ChatUserContentPart = z
  .discriminatedUnion('type', [ChatTextPart, ChatAudioPart, ChatImagePart, ChatVideoPart])
  .meta({ id: 'ChatUserContentPart' });
export type ChatUserContentPart = z.infer<typeof ChatUserContentPart>;

/** A string, or a non-empty array of text parts. */
const TextContent = z.union([z.string(), z.array(ChatTextPart).min(1)]);

export const ChatMessageToolCall = z
  .object({
    id: z.string().min(1).max(200),
    type: z.literal('function'),
    function: z.object({
      name: z.string().regex(TOOL_NAME_PATTERN, 'must match ^[a-zA-Z0-9_-]{1,64}$'),
      arguments: z.string().describe('The arguments as a JSON string.'),
    }),
  })
  .meta({ id: 'ChatMessageToolCall' });
export type ChatMessageToolCall = z.infer<typeof ChatMessageToolCall>;

export const ChatSystemMessage = z
  .object({ role: z.literal('system'), content: TextContent, name: z.string().max(256).optional() })
  .meta({ id: 'ChatSystemMessage' });

export const ChatDeveloperMessage = z.object({ role: z.literal('developer'), content: TextContent, name: z.string().max(256).optional() }).meta({
  id: 'ChatDeveloperMessage',
  description: "Instructions that outrank the user's (OpenAI's successor of `system`); sent as `system` to LLMs without the role.",
});

export const ChatUserMessage = z
  .object({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(ChatUserContentPart).min(1)]),
    name: z.string().max(256).optional(),
  })
  .meta({ id: 'ChatUserMessage' });

export const ChatAssistantMessage = z
  .object({
    role: z.literal('assistant'),
    content: TextContent.nullable().optional(),
    refusal: z.string().nullable().optional(),
    tool_calls: z.array(ChatMessageToolCall).optional(),
    name: z.string().max(256).optional(),
    audio: z
      .object({ id: z.string().min(1) })
      .nullable()
      .optional()
      .describe("A previous audio answer of OpenAI's (passed to upstreams)."),
    function_call: z
      .object({ name: z.string(), arguments: z.string() })
      .nullable()
      .optional()
      .describe('Deprecated by OpenAI for `tool_calls` (passed to upstreams).'),
  })
  .meta({ id: 'ChatAssistantMessage' });

export const ChatToolMessage = z
  .object({
    role: z.literal('tool'),
    content: TextContent,
    tool_call_id: z.string().min(1).max(200),
    tool_call_name: z.string().optional(),
  })
  .meta({ id: 'ChatToolMessage' });

export const ChatMessage = z
  .discriminatedUnion('role', [ChatSystemMessage, ChatDeveloperMessage, ChatUserMessage, ChatAssistantMessage, ChatToolMessage])
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatCompletionTool = z
  .object({
    type: z.literal('function'),
    function: z.object({
      name: z.string().regex(TOOL_NAME_PATTERN, 'must match ^[a-zA-Z0-9_-]{1,64}$'),
      description: z.string().max(10_000).optional(),
      parameters: FreeObject.optional().describe('JSON Schema object of the arguments; omitted means no arguments.'),
      strict: z.boolean().nullable().default(false),
    }),
  })
  .meta({ id: 'ChatCompletionTool' });
export type ChatCompletionTool = z.infer<typeof ChatCompletionTool>;

export const ChatToolChoice = z
  .union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) })])
  .meta({ id: 'ChatToolChoice', description: 'Default `none` without tools, `auto` with tools.' });
export type ChatToolChoice = z.infer<typeof ChatToolChoice>;

/** Voice used for speech output when `audio.voice` is absent. */
export const DEFAULT_CHAT_VOICE = 'flite-slt';

/** Speech output settings (OpenAI's `audio` request field); the voice is a platform voice id. */
export const ChatAudioOutput = z
  .object({
    voice: z.string().min(1).max(200).default(DEFAULT_CHAT_VOICE).describe('A platform voice id (`GET /v1/voice/list`); default `flite-slt`.'),
    format: z.enum(['mp3', 'wav']).default('mp3'),
  })
  .meta({ id: 'ChatAudioOutput' });
export type ChatAudioOutput = z.infer<typeof ChatAudioOutput>;

/**
 * Whether the request asks for moderation: `metadata.moderation` set to `true` (or `"true"`, since OpenAI's
 * metadata values are strings).
 *
 * @example
 * moderationRequested({ metadata: { moderation: 'true' } }); // true
 */
export function moderationRequested(request: { metadata?: Record<string, unknown> | null | undefined }): boolean {
  const value = request.metadata?.moderation;
  return value === true || value === 'true';
}

/** Whether the request asks for speech output (`modalities` includes `audio`). */
export function audioRequested(request: { modalities?: readonly string[] | null | undefined }): boolean {
  return request.modalities?.includes('audio') === true;
}

export const ChatCompletionRequest = z
  .strictObject({
    messages: z.array(ChatMessage).min(1).max(MAX_MESSAGES),
    model: z.string().min(1).max(200).describe('An LLM id of the platform.'),
    metadata: FreeObject.nullable()
      .optional()
      .describe(
        'Stored with the usage record. Service extension: `moderation: true` (or `"true"`) checks the latest user message ' +
          'before the model runs and the answer (a stream sentence by sentence, each sent once checked); a flagged text is refused with 400 ' +
          '`moderation_error`, or ends a stream with a `moderation_error` event.',
      ),
    modalities: z
      .array(z.enum(['text', 'audio']))
      .min(1)
      .max(2)
      .nullable()
      .optional()
      .describe('`["text", "audio"]` adds synthesized speech of the answer: `service_ext.voice` {audio_url, expires_at}.'),
    audio: ChatAudioOutput.nullable().optional().describe('Speech output settings, used when `modalities` includes `audio`.'),
    stream: z.boolean().nullable().default(false),
    stream_options: z
      .strictObject({
        include_usage: z.boolean().optional(),
        include_obfuscation: z.boolean().optional().describe("Taken; the platform's chunks carry no obfuscation padding."),
      })
      .nullable()
      .optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    max_tokens: z.number().int().min(1).max(MAX_COMPLETION_TOKENS).nullable().optional().describe('Deprecated by OpenAI for `max_completion_tokens`.'),
    ...chatParameterFields,
    tools: z.array(ChatCompletionTool).max(MAX_TOOLS).optional(),
    tool_choice: ChatToolChoice.optional(),
    parallel_tool_calls: z.boolean().default(true),
  })
  .superRefine((request, context) => {
    const declared = new Set((request.tools ?? []).map((tool) => tool.function.name));
    const choice = request.tool_choice;
    if (choice !== undefined && choice !== 'none' && declared.size === 0) {
      context.addIssue({ code: 'custom', path: ['tool_choice'], message: 'requires tools to be declared' });
    } else if (typeof choice === 'object' && !declared.has(choice.function.name)) {
      context.addIssue({
        code: 'custom',
        path: ['tool_choice', 'function', 'name'],
        message: `names '${choice.function.name}', which is not declared in tools`,
      });
    }
    const names = (request.tools ?? []).map((tool) => tool.function.name);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) context.addIssue({ code: 'custom', path: ['tools'], message: `declares '${duplicate}' twice` });
    if (request.audio && !audioRequested(request)) {
      context.addIssue({ code: 'custom', path: ['modalities'], message: "must include 'audio' when audio is set" });
    }
    if (request.top_logprobs !== undefined && request.top_logprobs !== null && request.logprobs !== true) {
      context.addIssue({ code: 'custom', path: ['top_logprobs'], message: 'needs logprobs: true' });
    }
    const format = request.response_format;
    if (format?.type === 'json_schema' && format.json_schema.strict === true && format.json_schema.schema === undefined) {
      context.addIssue({ code: 'custom', path: ['response_format', 'json_schema', 'schema'], message: 'is required when strict is true' });
    }
    const moderation = request.metadata?.moderation;
    if (moderation !== undefined && typeof moderation !== 'boolean' && moderation !== 'true' && moderation !== 'false') {
      context.addIssue({ code: 'custom', path: ['metadata', 'moderation'], message: 'must be a boolean (or "true"/"false")' });
    }
  })
  .meta({ id: 'ChatCompletionRequest' });
export type ChatCompletionRequest = z.output<typeof ChatCompletionRequest>;
export type ChatCompletionRequestInput = z.input<typeof ChatCompletionRequest>;

export const FinishReason = z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']).meta({ id: 'FinishReason' });
export type FinishReason = z.infer<typeof FinishReason>;

export const ChatCompletionUsage = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
  .meta({ id: 'ChatCompletionUsage' });
export type ChatCompletionUsage = z.infer<typeof ChatCompletionUsage>;

export const ChatVoiceOutput = z
  .object({
    audio_url: z
      .string()
      .describe('Where the speech is served (`GET /v1/chat/audio/{id}`, `audio/mpeg` or `audio/wav`); needs no credentials, 404 once expired.'),
    expires_at: z.number().int().describe('Unix seconds.'),
  })
  .meta({ id: 'ChatVoiceOutput' });
export type ChatVoiceOutput = z.infer<typeof ChatVoiceOutput>;

export const ChatServiceExtension = z.object({ voice: ChatVoiceOutput.nullable().optional() }).meta({ id: 'ChatServiceExtension' });
export type ChatServiceExtension = z.infer<typeof ChatServiceExtension>;

export const ChatCompletionResponse = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int().describe('Unix seconds.'),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({
          role: z.literal('assistant'),
          content: z.string().nullable(),
          refusal: z.string().nullable(),
          tool_calls: z.array(ChatMessageToolCall).optional(),
          service_ext: ChatServiceExtension.nullable().optional(),
        }),
        finish_reason: FinishReason,
        logprobs: ChatChoiceLogprobs.nullable().optional(),
      }),
    ),
    usage: ChatCompletionUsage.optional(),
  })
  .meta({ id: 'ChatCompletionResponse' });
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponse>;

export const ChatToolCallDelta = z
  .object({
    index: z.number().int(),
    id: z.string().optional(),
    type: z.literal('function').optional(),
    function: z.object({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
  })
  .meta({ id: 'ChatToolCallDelta' });
export type ChatToolCallDelta = z.infer<typeof ChatToolCallDelta>;

export const ChatCompletionChunk = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int().describe('Unix seconds.'),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        delta: z.object({
          role: z.enum(['system', 'user', 'assistant']),
          content: z.string().nullable(),
          tool_calls: z.array(ChatToolCallDelta).optional(),
          refusal: z.string().nullable().optional(),
          service_ext: ChatServiceExtension.nullable().optional().describe('Speech output: sent in one chunk after the finish chunk.'),
        }),
        finish_reason: FinishReason.nullable(),
        logprobs: ChatChoiceLogprobs.nullable().optional(),
      }),
    ),
    usage: ChatCompletionUsage.nullable().optional().describe('Only on the final chunk, when `stream_options.include_usage` is set.'),
  })
  .meta({
    id: 'ChatCompletionChunk',
    description:
      'One `data:` event of a streamed completion; the stream ends with `data: [DONE]`. An upstream failure after the ' +
      'stream began is sent as `event: error` with `data: {"error": {type, message}}`, then `data: [DONE]`. With speech output ' +
      '(`modalities: ["text", "audio"]`), one more chunk follows the finish chunk (before the usage chunk): its `delta.service_ext.voice` ' +
      'holds `audio_url` and `expires_at`.',
  });
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

/** The `data` of an `event: error` that ends a stream early. */
export const ChatStreamError = z
  .object({ error: z.object({ type: z.string(), code: z.string().nullable(), message: z.string() }) })
  .meta({ id: 'ChatStreamError' });
export type ChatStreamError = z.infer<typeof ChatStreamError>;

export const chatRoutes = {
  create: defineRoute({
    operationId: 'chat.create',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'K/B',
    tag: 'Chat completions',
    summary: 'Create a chat completion (OpenAI-compatible; streamed when `stream` is true)',
    request: { body: ChatCompletionRequest },
    success: { kind: 'json-or-sse', schema: ChatCompletionResponse, event: ChatCompletionChunk },
    errors: [502],
  }),
};
