import { z } from 'zod';
import { FreeObject } from './common.js';

/**
 * The fields of OpenAI's Chat Completions request that shape the model's answer and that the platform hands to the
 * chosen LLM as given (a hosted upstream receives them verbatim; the built-in offline model honours the ones it can
 * and refuses the others with 400 naming the field). Declared here, beside `chat.ts`, so both the route's schema and
 * the gateway's list of passed fields come from one place.
 */

/** Most stop sequences a request may give (OpenAI: 4). */
export const MAX_STOP_SEQUENCES = 4;
/** Most choices one request may ask for (OpenAI: 128). */
export const MAX_CHOICES = 128;
/** Most alternatives per token position `top_logprobs` may ask for (OpenAI: 20). */
export const MAX_TOP_LOGPROBS = 20;

export const ChatResponseFormat = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      json_schema: z.object({
        name: z
          .string()
          .regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must match ^[a-zA-Z0-9_-]{1,64}$')
          .describe('Name of the format.'),
        description: z.string().optional(),
        schema: FreeObject.optional().describe('A JSON Schema the answer must validate against.'),
        strict: z.boolean().nullable().optional(),
      }),
    }),
  ])
  .meta({ id: 'ChatResponseFormat', description: '`text` (default), `json_object` (a JSON object), or `json_schema` (JSON validating against the schema).' });
export type ChatResponseFormat = z.infer<typeof ChatResponseFormat>;

export const ChatPrediction = z
  .object({ type: z.literal('content'), content: z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() })).min(1)]) })
  .meta({ id: 'ChatPrediction' });

export const ReasoningEffort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).meta({ id: 'ReasoningEffort' });

/**
 * The answer-shaping fields, each as OpenAI declares it (`null` where OpenAI allows it). The platform's own fields
 * (`messages`, `model`, `stream`, `stream_options`, `tools`, `tool_choice`, `parallel_tool_calls`, `max_tokens`,
 * `temperature`, `metadata`, `modalities`, `audio`) are declared in `chat.ts`.
 */
export const chatParameterFields = {
  n: z.number().int().min(1).max(MAX_CHOICES).nullable().optional().describe('How many choices to generate (default 1).'),
  stop: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(MAX_STOP_SEQUENCES)])
    .nullable()
    .optional()
    .describe('Up to 4 sequences where the answer stops; the sequence itself is not returned.'),
  seed: z.number().int().nullable().optional(),
  logprobs: z.boolean().nullable().optional().describe('Return the log probability of each output token.'),
  top_logprobs: z.number().int().min(0).max(MAX_TOP_LOGPROBS).nullable().optional().describe('Alternatives per token position; needs `logprobs: true`.'),
  response_format: ChatResponseFormat.optional(),
  max_completion_tokens: z.number().int().min(1).nullable().optional().describe('Upper bound of the generated tokens (reasoning tokens included).'),
  reasoning_effort: ReasoningEffort.nullable().optional(),
  verbosity: z.enum(['low', 'medium', 'high']).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
  presence_penalty: z.number().min(-2).max(2).nullable().optional(),
  logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullable().optional(),
  user: z.string().optional().describe('Deprecated by OpenAI for `safety_identifier` and `prompt_cache_key`; passed on as given.'),
  safety_identifier: z.string().nullable().optional(),
  prompt_cache_key: z.string().nullable().optional(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullable().optional(),
  prompt_cache_options: z.object({ mode: z.enum(['implicit', 'explicit']).optional(), ttl: z.literal('30m').optional() }).optional(),
  prediction: ChatPrediction.nullable().optional().describe('Predicted output (speeds up regeneration of mostly known text).'),
  store: z.boolean().nullable().optional().describe('Whether the upstream stores the completion (OpenAI).'),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).nullable().optional(),
  web_search_options: FreeObject.optional(),
  moderation: z
    .object({ model: z.string(), policy: FreeObject.nullable().optional() })
    .nullable()
    .optional()
    .describe("OpenAI's own moderation of the call (passed on); the platform's moderation is `metadata.moderation`."),
  functions: z.array(FreeObject).optional().describe('Deprecated by OpenAI for `tools`.'),
  function_call: z
    .union([z.enum(['none', 'auto']), z.object({ name: z.string() })])
    .optional()
    .describe('Deprecated by OpenAI for `tool_choice`.'),
};

/** The parameters the gateway passes to the model as given. */
export type ChatParameterName = keyof typeof chatParameterFields;
export const CHAT_PARAMETER_NAMES = Object.keys(chatParameterFields) as ChatParameterName[];
export type ChatParameters = { [K in ChatParameterName]?: z.output<(typeof chatParameterFields)[K]> };

export const ChatTokenLogprob = z
  .object({
    token: z.string(),
    logprob: z.number(),
    bytes: z.array(z.number().int()).nullable(),
    top_logprobs: z.array(z.object({ token: z.string(), logprob: z.number(), bytes: z.array(z.number().int()).nullable() })),
  })
  .meta({ id: 'ChatTokenLogprob' });
export type ChatTokenLogprob = z.infer<typeof ChatTokenLogprob>;

export const ChatChoiceLogprobs = z
  .object({ content: z.array(ChatTokenLogprob).nullable(), refusal: z.array(ChatTokenLogprob).nullable().optional() })
  .meta({ id: 'ChatChoiceLogprobs' });
export type ChatChoiceLogprobs = z.infer<typeof ChatChoiceLogprobs>;
