import type { Llm } from '../../../contract/llms.js';
import { ApiError, BadRequestError } from '../../../errors/api-error.js';
import type { ServerConfig } from '../../kernel/config.js';
import type { OutboundPolicy } from '../../kernel/outbound/index.js';
import type { Principal } from '../../kernel/principal.js';
import { cacheTime, timedCache } from '../../kernel/timed-cache.js';
import type { ChatModel } from './chat-model.js';
import { OFFLINE_MODEL_ID, createOfflineChatModel } from './offline-model.js';
import { createOpenAiCompatibleModel, type OpenAiCompatibleModelOptions } from './openai-compatible-model.js';

/**
 * Turns a request's `model` (an LLM id) into the model that answers it. Throws 400 `invalid_input`
 * naming `model` when the caller cannot use that LLM.
 */
export type ResolveModel = (principal: Principal, modelId: string) => Promise<ChatModel>;

const MAX_CACHED_MODELS = 256;
/** How long a resolution (LLM definition, visibility, resolved secrets) is reused (docs/decisions/0062). */
export const RESOLUTION_TTL_MS = 1000;

/** The parts of the LLM service the resolver needs (`services.llms`). */
export interface LlmLookup {
  retrieve(principal: Principal, id: string): Promise<Llm>;
  resolveHeaders(principal: Principal, llm: Llm | string): Promise<Record<string, string>>;
  /** Grows with every change this process makes to LLMs or secrets; a changed value drops remembered resolutions. */
  readonly revision: number;
}

export interface ModelResolverOptions {
  llms: LlmLookup;
  config: Pick<ServerConfig, 'llm'>;
  /** Which private destinations project LLMs may reach (built-ins are configured by the operator). */
  addressPolicy: OutboundPolicy;
  offline?: ChatModel;
  /** Timeouts and retries of upstream models (tests shorten them). */
  upstream?: Pick<OpenAiCompatibleModelOptions, 'retry' | 'firstChunkTimeoutMs' | 'idleTimeoutMs' | 'onRetry'>;
}

/**
 * The default resolver: `builtin-offline` is the offline model; other built-ins and the project's
 * `openai_compatible` LLMs become OpenAI-compatible upstream models with their headers' secrets resolved.
 *
 * @example
 * const resolveModel = createModelResolver({ llms: services.llms, config, addressPolicy: { allowLoopback: true, allowPrivateNetworks: false } });
 */
export function createModelResolver(options: ModelResolverOptions): ResolveModel {
  const offline = options.offline ?? createOfflineChatModel();
  // Models (and their `openai` clients with pooled connections) are reused while an LLM's definition and
  // resolved headers stay the same; a changed definition or secret gives a new key.
  const models = timedCache<string, ChatModel>({ max: MAX_CACHED_MODELS });
  const cached = (key: string, create: () => ChatModel): ChatModel => {
    let model = models.get(key);
    if (!model) {
      model = create();
      models.set(key, model);
    }
    return model;
  };
  // Which model answers a caller's `model`, remembered briefly: reading the definition and resolving its secrets
  // is most of the gateway's own latency. Only successes are remembered.
  const resolutions = timedCache<string, { model: ChatModel; revision: number }>({ max: MAX_CACHED_MODELS, ttlMs: RESOLUTION_TTL_MS });
  const resolve = async (principal: Principal, modelId: string): Promise<ChatModel> => {
    let llm: Llm;
    try {
      llm = await options.llms.retrieve(principal, modelId);
    } catch (error) {
      if (ApiError.isInstance(error) && error.status === 404) {
        throw new BadRequestError(`Invalid body: model: no LLM '${modelId}' is available to this caller (see GET /v1/llm/list)`, { cause: error });
      }
      throw error;
    }
    if (!llm.post_url) throw new BadRequestError(`Invalid body: model: LLM '${modelId}' has no post_url to send requests to`);
    if (!llm.model) throw new BadRequestError(`Invalid body: model: LLM '${modelId}' names no upstream model`);
    const builtIn = llm.project === null || llm.project === undefined;
    const headers = await options.llms.resolveHeaders(principal, llm);
    if (llm.type === 'openai' && options.config.llm.openaiApiKey) {
      // The platform's key lives only in the config and is added here, never stored with the LLM.
      headers.authorization = `Bearer ${options.config.llm.openaiApiKey}`;
    }
    const { post_url: url, model } = llm;
    const key = JSON.stringify([llm.id, url, model, headers, builtIn]);
    return cached(key, () =>
      createOpenAiCompatibleModel({
        id: llm.id,
        label: `LLM '${llm.name}' (${llm.id})`,
        url,
        model,
        headers,
        developerRole: llm.type === 'openai',
        ...options.upstream,
        ...(builtIn ? {} : { addressPolicy: options.addressPolicy }),
      }),
    );
  };
  return async (principal, modelId) => {
    if (modelId === OFFLINE_MODEL_ID) return offline;
    const key = `${principal.project}\u0000${principal.kind}\u0000${principal.human ?? ''}\u0000${modelId}`;
    const revision = options.llms.revision;
    const remembered = resolutions.get(key);
    if (remembered && remembered.revision === revision) return remembered.model;
    const started = performance.now();
    const model = await resolve(principal, modelId);
    // Its time to live counts from before the reads: the answer is as old as they are.
    resolutions.set(key, { model, revision }, { start: cacheTime(started) });
    return model;
  };
}
