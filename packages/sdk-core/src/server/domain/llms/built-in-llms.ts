import type { Llm } from '../../../contract/llms.js';
import type { ServerConfig } from '../../kernel/config.js';
import { OFFLINE_MODEL_ID, OFFLINE_MODEL_NAME } from '../../engines/llm/index.js';

/** What a stored LLM document holds besides id, project and timestamps. */
export type LlmData = Omit<Llm, 'id' | 'created_at' | 'project'>;

/** A built-in (global, read-only) LLM: stable id plus its data. */
export interface BuiltInLlm {
  id: string;
  data: LlmData;
}

/** Prefix of every built-in LLM id. */
export const BUILT_IN_PREFIX = 'builtin-';
/** The offline built-in model's LLM id: the model the gateway answers offline. */
export const OFFLINE_LLM_ID = OFFLINE_MODEL_ID;

/** Model names may hold characters ids should not (`llama3.1:8b`); ids keep `[A-Za-z0-9._-]`. */
function idPart(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '-');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The built-in LLMs for a configuration: the deterministic offline model always, plus one per configured
 * OpenAI model (when an API key is set) and per configured Ollama model (when an Ollama URL is set).
 * The upstream API key stays in the server config; it is never part of an LLM's headers.
 *
 * @example
 * builtInLlms(config.llm).map((llm) => llm.id) // ['builtin-offline', 'builtin-openai-gpt-4o-mini']
 */
export function builtInLlms(config: ServerConfig['llm']): BuiltInLlm[] {
  const llms: BuiltInLlm[] = [
    {
      id: OFFLINE_LLM_ID,
      data: {
        name: OFFLINE_MODEL_NAME,
        type: 'builtin',
        description: 'Answers deterministically without any network access. For tests and offline development only.',
        compliance: true,
        service_tool_calling: true,
        headers: [],
        model: 'palaver-offline',
      },
    },
  ];
  if (config.openaiApiKey) {
    for (const model of config.openaiModels) {
      llms.push({
        id: `${BUILT_IN_PREFIX}openai-${idPart(model)}`,
        data: {
          name: `OpenAI ${model}`,
          type: 'openai',
          description: `OpenAI model ${model}, through the platform's OpenAI account.`,
          compliance: false,
          service_tool_calling: true,
          headers: [],
          model,
          post_url: `${trimSlash(config.openaiBaseUrl)}/chat/completions`,
        },
      });
    }
  }
  if (config.ollamaUrl) {
    for (const model of config.ollamaModels) {
      llms.push({
        id: `${BUILT_IN_PREFIX}ollama-${idPart(model)}`,
        data: {
          name: `Ollama ${model}`,
          type: 'ollama',
          description: `Ollama model ${model} on the platform's Ollama server.`,
          compliance: false,
          service_tool_calling: true,
          headers: [],
          model,
          post_url: `${trimSlash(config.ollamaUrl)}/v1/chat/completions`,
        },
      });
    }
  }
  return llms;
}
