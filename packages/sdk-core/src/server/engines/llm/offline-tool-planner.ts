import { createHash } from 'node:crypto';
import type { ChatCompletionTool } from '../../../contract/chat.js';
import type { ChatModelRequest } from './chat-model.js';
import { messageText } from './token-count.js';

/** A tool call the offline model decided to make. */
export interface PlannedToolCall {
  id: string;
  name: string;
  arguments: string;
}

const STOP_WORDS = new Set([
  'about',
  'after',
  'also',
  'and',
  'any',
  'are',
  'for',
  'from',
  'get',
  'gets',
  'given',
  'has',
  'have',
  'into',
  'its',
  'returns',
  'that',
  'the',
  'their',
  'them',
  'then',
  'this',
  'tool',
  'use',
  'used',
  'when',
  'which',
  'will',
  'with',
  'your',
]);

/** Verbs that tool names start with and that say nothing about what the tool is for. */
const VERBS = new Set([
  'get',
  'set',
  'fetch',
  'find',
  'list',
  'lookup',
  'look',
  'search',
  'create',
  'update',
  'delete',
  'make',
  'do',
  'run',
  'send',
  'check',
  'show',
]);

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** How strongly the message asks for the tool: its name, or keywords of its description. */
function relevance(tool: ChatCompletionTool, message: string): number {
  const lower = message.toLowerCase();
  const name = tool.function.name.toLowerCase();
  if (lower.includes(name) || lower.includes(name.replace(/[_-]+/g, ' '))) return 100;
  const messageWords = new Set(words(message));
  // `get_weather` is asked for by "weather": every distinctive word of the name appears in the message.
  const nameWords = words(name.replace(/[_-]+/g, ' ')).filter((word) => !STOP_WORDS.has(word) && !VERBS.has(word));
  if (nameWords.length > 0 && nameWords.every((word) => messageWords.has(word))) return 50;
  const keywords = new Set(
    words(`${name.replace(/[_-]+/g, ' ')} ${tool.function.description ?? ''}`).filter((word) => word.length >= 4 && !STOP_WORDS.has(word)),
  );
  let hits = 0;
  for (const keyword of keywords) if (messageWords.has(keyword)) hits += 1;
  // One shared keyword is enough only for a tool described in very few words.
  return hits >= Math.min(2, keywords.size) ? hits : 0;
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
}

/** A value for a string property: quoted text, `<property> <value>`, or the word after in/for/about/of/to. */
function stringValue(property: string, schema: PropertySchema, message: string): string | undefined {
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.filter((option): option is string => typeof option === 'string');
    return options.find((option) => message.toLowerCase().includes(option.toLowerCase()));
  }
  const quoted = /["“']([^"”']{1,200})["”']/.exec(message);
  if (quoted) return quoted[1];
  const named = new RegExp(`\\b${property.replace(/[_-]+/g, '[ _-]?')}\\s*(?:is|=|:)?\\s*([\\p{L}\\p{N}][\\p{L}\\p{N}.@_-]*)`, 'iu').exec(message);
  if (named) return named[1];
  const after = /\b(?:in|for|about|of|to|at)\s+([\p{Lu}\p{N}][\p{L}\p{N}-]*(?:\s+[\p{Lu}][\p{L}-]*)*)/u.exec(message);
  if (after) return after[1];
  return undefined;
}

function valueFor(property: string, schema: PropertySchema, message: string, required: boolean): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type;
  switch (type) {
    case 'number':
    case 'integer': {
      const number = /-?\d+(?:\.\d+)?/.exec(message);
      if (number) return type === 'integer' ? Math.trunc(Number(number[0])) : Number(number[0]);
      return required ? (schema.minimum ?? 0) : undefined;
    }
    case 'boolean':
      return required ? true : undefined;
    case 'array':
      return required ? [] : undefined;
    case 'object':
      return required ? {} : undefined;
    default: {
      const value = stringValue(property, schema, message);
      if (value !== undefined || !required) return value;
      return Array.isArray(schema.enum) ? schema.enum[0] : message.trim().slice(0, 100);
    }
  }
}

/** Arguments filled from the message where it gives them; required ones always get a value. */
function argumentsFor(tool: ChatCompletionTool, message: string): Record<string, unknown> {
  const parameters = (tool.function.parameters ?? {}) as { properties?: Record<string, PropertySchema>; required?: string[] };
  const required = new Set(Array.isArray(parameters.required) ? parameters.required : []);
  const result: Record<string, unknown> = {};
  for (const [property, schema] of Object.entries(parameters.properties ?? {})) {
    const value = valueFor(property, schema ?? {}, message, required.has(property));
    if (value !== undefined) result[property] = value;
  }
  return result;
}

function callId(request: ChatModelRequest, name: string, index: number): string {
  const hash = createHash('sha256');
  for (const message of request.messages) hash.update(`${message.role}\u0000${messageText(message)}\u0000`);
  hash.update(`${name}\u0000${index}`);
  return `call_${hash.digest('hex').slice(0, 24)}`;
}

/**
 * Decides the offline model's tool calls, deterministically: none when the last message is a tool
 * result (the model then answers); the named tool for a named `tool_choice`; otherwise the declared tools
 * the last user message asks for by name or description keywords (`required` falls back to the first).
 */
export function planToolCalls(request: ChatModelRequest): PlannedToolCall[] {
  const tools = request.tools ?? [];
  const choice = request.toolChoice;
  if (tools.length === 0 || choice === 'none') return [];
  const last = request.messages.at(-1);
  if (last?.role === 'tool' || last?.role === 'assistant') return [];
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const message = lastUser ? messageText(lastUser) : '';

  let chosen: ChatCompletionTool[];
  if (typeof choice === 'object') {
    chosen = tools.filter((tool) => tool.function.name === choice.function.name);
  } else {
    chosen = tools
      .map((tool, order) => ({ tool, order, score: relevance(tool, message) }))
      .filter((candidate) => candidate.score > 0)
      .sort((left, right) => right.score - left.score || left.order - right.order)
      .map((candidate) => candidate.tool);
    if (chosen.length === 0 && choice === 'required') chosen = [tools[0]!];
  }
  if (!request.parallelToolCalls) chosen = chosen.slice(0, 1);
  return chosen.map((tool, index) => ({
    id: callId(request, tool.function.name, index),
    name: tool.function.name,
    arguments: JSON.stringify(argumentsFor(tool, message)),
  }));
}
