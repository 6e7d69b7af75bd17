import type { Logger } from 'pino';
import type { ChatPort } from '../../../kernel/ports/chat.js';
import { OFFLINE_LLM_ID } from '../../llms/built-in-llms.js';
import { LlmMemoryExtractor } from './llm-memory-extractor.js';
import type { MemoryExtractor } from './memory-extractor.js';
import { RuleBasedExtractor } from './rule-based-extractor.js';

/**
 * The extractor for a configuration: the LLM named by `llm.memoryModel` (`PALAVER_MEMORY_LLM`) through the
 * gateway, falling back to the offline rules; the offline rules alone when none is named or when it is the
 * offline test model (which is not a real LLM).
 */
export function createMemoryExtractor(options: { model: string | undefined; chat: Pick<ChatPort, 'complete'>; logger?: Logger }): MemoryExtractor {
  const offline = new RuleBasedExtractor();
  if (options.model === undefined || options.model === OFFLINE_LLM_ID) return offline;
  return new LlmMemoryExtractor({ chat: options.chat, model: options.model, fallback: offline, ...(options.logger ? { logger: options.logger } : {}) });
}
