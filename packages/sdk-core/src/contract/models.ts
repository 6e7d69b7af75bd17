import { z } from 'zod';
import { Id } from './common.js';
import { defineRoute } from './define-route.js';

/**
 * OpenAI's model listing (`GET /v1/models`), a Palaver extension beside the OpenAI-compatible chat completions: the
 * caller's LLMs (built-in and the project's) in OpenAI's shape, so `openai.models.list()` works. A model's `id` is
 * what `model` takes in `POST /v1/chat/completions`.
 */
export const OpenAiModel = z
  .object({
    id: z.string().describe('The LLM id, as `model` of chat completions takes it.'),
    object: z.literal('model'),
    created: z.number().int().describe('Unix seconds when the LLM was defined.'),
    owned_by: z.string().describe('`palaver` for built-in LLMs, else the owning project.'),
  })
  .meta({ id: 'OpenAIModel' });
export type OpenAiModel = z.infer<typeof OpenAiModel>;

export const OpenAiModelList = z.object({ object: z.literal('list'), data: z.array(OpenAiModel) }).meta({ id: 'OpenAIModelList' });
export type OpenAiModelList = z.infer<typeof OpenAiModelList>;

/** At most this many models are listed (built-ins first, then the project's newest). */
export const MAX_LISTED_MODELS = 1000;

export const modelRoutes = {
  list: defineRoute({
    operationId: 'models.list',
    method: 'GET',
    path: '/v1/models',
    auth: 'K/B',
    tag: 'Chat completions',
    summary: "List the caller's LLMs as OpenAI models (Palaver extension, for OpenAI clients)",
    success: { kind: 'json', schema: OpenAiModelList },
  }),
  retrieve: defineRoute({
    operationId: 'models.retrieve',
    method: 'GET',
    path: '/v1/models/{model}',
    auth: 'K/B',
    tag: 'Chat completions',
    summary: "Get one of the caller's LLMs as an OpenAI model (Palaver extension)",
    request: { params: z.object({ model: Id }) },
    success: { kind: 'json', schema: OpenAiModel },
    errors: [404],
  }),
};
