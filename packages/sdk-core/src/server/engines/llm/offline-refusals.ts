import type { ChatModelRequest } from './chat-model.js';

type Refusal = { field: string; reason: string } | undefined;

/** Service tiers the offline model runs at (it has one). */
const OFFLINE_TIERS = new Set(['auto', 'default']);

/**
 * The fields the offline model cannot honour, as the first one a request sets (`null` and neutral values, such as a
 * zero penalty, are honoured). It honours: `n`, `stop`, `seed` (it is deterministic), `logprobs`/`top_logprobs` (each
 * token has probability 1), `response_format`, the token limits, `temperature`/`top_p` (greedy at any setting),
 * `prediction` (it changes no answer), tools, `user`, `safety_identifier`, the prompt cache fields, `metadata`.
 *
 * @example
 * offlineRefusal({ ...request, parameters: { reasoning_effort: 'high' } }) // { field: 'reasoning_effort', reason: ... }
 */
export function offlineRefusal(request: ChatModelRequest): Refusal {
  const parameters = request.parameters ?? {};
  if (parameters.reasoning_effort && parameters.reasoning_effort !== 'none') {
    return { field: 'reasoning_effort', reason: 'the offline model does not reason; only none (or no value) is honoured' };
  }
  if (parameters.verbosity) return { field: 'verbosity', reason: 'the offline model has one wording' };
  for (const field of ['frequency_penalty', 'presence_penalty'] as const) {
    const value = parameters[field];
    if (value !== undefined && value !== null && value !== 0) return { field, reason: 'the offline model cannot penalise repetition; only 0 is honoured' };
  }
  if (parameters.logit_bias && Object.keys(parameters.logit_bias).length > 0) {
    return { field: 'logit_bias', reason: 'the offline model has no token vocabulary to bias' };
  }
  if (parameters.store === true) return { field: 'store', reason: 'completions are not stored for retrieval on this platform' };
  if (parameters.service_tier && !OFFLINE_TIERS.has(parameters.service_tier)) {
    return { field: 'service_tier', reason: 'the offline model has only the default tier' };
  }
  if (parameters.web_search_options) return { field: 'web_search_options', reason: 'the offline model has no web search' };
  if (parameters.moderation) return { field: 'moderation', reason: "OpenAI's moderation is not available offline; the platform's is metadata.moderation" };
  if (parameters.functions) return { field: 'functions', reason: 'deprecated by OpenAI; declare tools instead' };
  if (parameters.function_call) return { field: 'function_call', reason: 'deprecated by OpenAI; use tool_choice instead' };
  return messageRefusal(request);
}

/** Assistant message fields the offline model cannot read: OpenAI's stored audio answers, deprecated function calls. */
function messageRefusal(request: ChatModelRequest): Refusal {
  for (const [index, message] of request.messages.entries()) {
    if (message.role !== 'assistant') continue;
    if (message.audio) return { field: `messages[${index}].audio`, reason: "the offline model has no stored audio answers; send the answer's text as content" };
    if (message.function_call) return { field: `messages[${index}].function_call`, reason: 'deprecated by OpenAI; use tool_calls instead' };
  }
  return undefined;
}
