import { CHAT_PARAMETER_NAMES, type ChatParameters } from '../../../contract/chat-parameters.js';
import { audioRequested, moderationRequested, type ChatCompletionRequest } from '../../../contract/chat.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { ChatModelRequest, TokenLimitField } from './chat-model.js';

/** What the gateway hands the model of a request besides messages and tools. */
export interface PassedParameters {
  parameters: NonNullable<ChatModelRequest['parameters']>;
  metadata: Record<string, unknown> | undefined;
  /** The caller's token limit per choice, if any (`max_completion_tokens`, else `max_tokens`). */
  limit: number | undefined;
  limitFields: TokenLimitField[];
  /** How many choices the model generates (`n`). */
  choices: number;
}

/**
 * The request's answer-shaping fields, passed on as the caller gave them (never dropped: each one reaches the model,
 * which honours it or is refused by name). Refuses `n` > 1 with the platform's per-answer features (moderation and
 * speech output work on one answer).
 *
 * @example
 * passedParameters({ model: 'builtin-offline', messages, seed: 7, n: 2 }).parameters // { seed: 7, n: 2 }
 */
export function passedParameters(request: ChatCompletionRequest): PassedParameters {
  const parameters: ChatParameters = {};
  for (const name of CHAT_PARAMETER_NAMES) {
    if (name === 'max_completion_tokens' || request[name] === undefined) continue;
    (parameters as Record<string, unknown>)[name] = request[name];
  }
  const choices = request.n ?? 1;
  if (choices > 1 && moderationRequested(request)) throw new BadRequestError('Invalid body: n: moderation (metadata.moderation) checks one answer; use n: 1');
  if (choices > 1 && audioRequested(request)) throw new BadRequestError("Invalid body: n: speech output (modalities: ['audio']) speaks one answer; use n: 1");
  const limitFields: TokenLimitField[] = [];
  if (request.max_tokens !== undefined && request.max_tokens !== null) limitFields.push('max_tokens');
  if (request.max_completion_tokens !== undefined && request.max_completion_tokens !== null) limitFields.push('max_completion_tokens');
  const limits = [request.max_completion_tokens, request.max_tokens].filter((value): value is number => typeof value === 'number');
  const { moderation: _platformOwn, ...metadata } = request.metadata ?? {};
  return {
    parameters,
    // Kept with the usage records; passed on (without the platform's own `moderation` key) with `store: true`, the
    // only case OpenAI takes it in (metadata of a stored completion).
    metadata: request.store === true && request.metadata && Object.keys(metadata).length > 0 ? metadata : undefined,
    limit: limits.length > 0 ? Math.min(...limits) : undefined,
    limitFields,
    choices,
  };
}
