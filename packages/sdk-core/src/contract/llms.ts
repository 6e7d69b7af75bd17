import { z } from 'zod';
import { DateTime, Id, MessageResponse, PageQuery, listOf } from './common.js';
import { defineRoute } from './define-route.js';

/** RFC 9110 `token` characters: what an HTTP header name may contain. */
const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** Header values may not carry line breaks or other control characters (header injection). */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const HEADER_VALUE_PATTERN = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;

/** Kinds of LLM: built-ins of the platform and the project's OpenAI-compatible endpoints. */
export const LlmType = z.enum(['builtin', 'openai', 'ollama', 'openai_compatible']).meta({ id: 'LLMType' });
export type LlmType = z.infer<typeof LlmType>;

export const LlmHeader = z.object({ key: z.string(), value: z.string() }).meta({
  id: 'LLMHeader',
  description:
    'A header sent with every request to the LLM. `{{secret:NAME}}` in the value is replaced by that secret server-side. ' +
    'Human-scoped callers (usage token, or API key with x-human-id) see literal values of LLMs they do not own masked ' +
    "as '••••' plus the last 4 characters (short values: '••••' only); values made only of secret references stay visible.",
});
export type LlmHeader = z.infer<typeof LlmHeader>;

const LlmHeaderInput = z.object({
  key: z.string().regex(HEADER_NAME_PATTERN, 'must be an HTTP header name (token characters only)'),
  value: z.string().max(8192).regex(HEADER_VALUE_PATTERN, 'must not contain line breaks or control characters'),
});

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const Llm = z
  .object({
    id: z.string(),
    created_at: DateTime,
    name: z.string(),
    type: LlmType,
    compliance: z.boolean(),
    description: z.string(),
    service_tool_calling: z.boolean().describe("Whether the service's tool calling is enabled with this LLM."),
    project: z.string().nullable().optional().describe('Null for built-in LLMs.'),
    headers: z.array(LlmHeader).optional(),
    model: z.string().optional(),
    post_url: z.string().optional().describe('Full URL of the chat-completions endpoint requests are sent to.'),
  })
  .meta({ id: 'LLM' });
export type Llm = z.infer<typeof Llm>;

export const LlmCreateRequest = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(20_000),
    headers: z
      .array(LlmHeaderInput)
      .max(50)
      .superRefine((headers, context) => {
        const seen = new Set<string>();
        headers.forEach((header, index) => {
          const key = header.key.toLowerCase();
          if (seen.has(key)) context.addIssue({ code: 'custom', message: `duplicate header '${header.key}'`, path: [index, 'key'] });
          seen.add(key);
        });
      }),
    model: z.string().min(1).max(200),
    post_url: HttpUrl.optional().describe('Full URL of the OpenAI-compatible chat-completions endpoint.'),
  })
  .meta({ id: 'LLMCreateRequest' });
export type LlmCreateRequest = z.infer<typeof LlmCreateRequest>;

export const LlmList = listOf(Llm, 'LLMList');

const params = z.object({ llm: Id });

export const llmRoutes = {
  create: defineRoute({
    operationId: 'llms.create',
    method: 'POST',
    path: '/v1/llm',
    auth: 'K/B',
    tag: 'LLMs',
    summary: 'Define an OpenAI-compatible LLM',
    request: { body: LlmCreateRequest },
    success: { kind: 'json', schema: Llm },
  }),
  list: defineRoute({
    operationId: 'llms.list',
    method: 'GET',
    path: '/v1/llm/list',
    auth: 'K/B',
    tag: 'LLMs',
    summary: 'List built-in and project LLMs',
    request: { query: PageQuery },
    success: { kind: 'json', schema: LlmList },
  }),
  retrieve: defineRoute({
    operationId: 'llms.retrieve',
    method: 'GET',
    path: '/v1/llm/{llm}',
    auth: 'K/B',
    tag: 'LLMs',
    summary: 'Get an LLM',
    request: { params },
    success: { kind: 'json', schema: Llm },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'llms.update',
    method: 'PUT',
    path: '/v1/llm/{llm}',
    auth: 'K/B',
    tag: 'LLMs',
    summary: 'Replace an LLM definition',
    request: { params, body: LlmCreateRequest },
    success: { kind: 'json', schema: Llm },
    errors: [403, 404],
  }),
  delete: defineRoute({
    operationId: 'llms.delete',
    method: 'DELETE',
    path: '/v1/llm/{llm}',
    auth: 'K/B',
    tag: 'LLMs',
    summary: 'Delete an LLM',
    request: { params },
    success: { kind: 'json', schema: MessageResponse },
    errors: [403, 404],
  }),
};
