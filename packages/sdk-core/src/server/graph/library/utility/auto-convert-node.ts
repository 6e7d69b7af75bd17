import { GraphContextMessage, TRIGGER, contextMessageText, isTrigger } from '../../../../contract/graph/pad-values.js';
import type { PadDataType } from '../../../../contract/graph/pad-constraints.js';
import type { NodeImplementation } from '../../runtime/graph-node.js';
import { isAudioPacket, isTextStream, TextStream } from '../../runtime/stream-values.js';
import { describeValue } from './node-lifetime.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a value, when it has one: numbers and booleans written out, objects and lists as JSON. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const message = GraphContextMessage.safeParse(value);
  if (message.success) return contextMessageText(message.data);
  if (isRecord(value) && 'transcription' in value) return (value as { transcription: string | null }).transcription ?? undefined;
  if (isTrigger(value) || isAudioPacket(value) || isTextStream(value)) return undefined;
  if (isRecord(value) || Array.isArray(value)) {
    try {
      return JSON.stringify(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A text stream holding `text`, already complete. */
function completeStream(text: string): TextStream {
  const stream = new TextStream();
  stream.write(text);
  stream.end();
  return stream;
}

/** `value` as `type`, or undefined when it has no such form. */
export function convertTo(value: unknown, type: PadDataType | undefined): unknown {
  if (type === undefined) return value;
  switch (type) {
    case 'trigger':
      return TRIGGER;
    case 'string':
    case 'enum':
      return isTrigger(value) ? undefined : textOf(value);
    case 'text_stream': {
      if (isTextStream(value)) return value;
      const text = isTrigger(value) ? undefined : textOf(value);
      return text === undefined ? undefined : completeStream(text);
    }
    case 'integer':
    case 'float': {
      if (typeof value === 'boolean') return value ? 1 : 0;
      const number = typeof value === 'number' ? value : Number(textOf(value)?.trim() || Number.NaN);
      if (!Number.isFinite(number)) return undefined;
      return type === 'integer' ? Math.round(number) : number;
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (typeof value === 'number') return value !== 0;
      const text = textOf(value)?.trim().toLowerCase();
      if (text === 'true' || text === 'yes' || text === '1') return true;
      if (text === 'false' || text === 'no' || text === '0') return false;
      return undefined;
    }
    case 'object': {
      if (isRecord(value) && !isTrigger(value)) return value;
      if (typeof value !== 'string') return undefined;
      try {
        const parsed: unknown = JSON.parse(value);
        return isRecord(parsed) ? parsed : undefined;
      } catch {
        return undefined;
      }
    }
    default:
      return value;
  }
}

/**
 * AutoConvert: each value on `sink` leaves `source` converted to the type of the pad `source` is linked to
 * (the first linked sink's first type): a trigger, text, a text stream, a number, a boolean or an object;
 * text streams are read to their end first unless a text stream is wanted. Values without such a form are
 * logged and dropped.
 */
export const autoConvertNode: NodeImplementation = async (node, signal) => {
  const source = node.source('source');
  const target = source.next[0]?.types?.[0]?.type;
  for await (const value of node.sink('sink')) {
    if (signal.aborted) break;
    const input = isTextStream(value) && target !== 'text_stream' && target !== 'trigger' ? await value.readAll() : value;
    const converted = convertTo(input, target);
    if (converted === undefined) {
      node.log('warning', `cannot convert ${describeValue(input)} to ${target}`, 'sink');
      continue;
    }
    source.push(converted);
  }
};
