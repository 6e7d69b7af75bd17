import type { ChatMessage, ChatMessageToolCall } from '../../../contract/chat.js';
import type { RealtimeItem, RealtimeItemInput } from '../../../contract/openai-realtime-session.js';
import { textUpTo } from '../../voice/index.js';
import { RealtimeRequestError } from './realtime-errors.js';
import { realtimeId } from './realtime-ids.js';

/** Where an answer's words lie in its audio, ms (for truncation). */
export interface SpokenSegment {
  text: string;
  startMs: number;
  durationMs: number;
}

interface StoredItem {
  item: RealtimeItem;
  /** An assistant audio answer: its segments and audio length, so a truncation keeps the words heard. */
  audio?: { segments: SpokenSegment[]; durationMs: number };
}

/** The text of a message item: its text parts and audio transcripts, in order. */
export function itemText(item: RealtimeItem): string {
  return (item.content ?? [])
    .map((part) => part.text ?? part.transcript ?? '')
    .filter(Boolean)
    .join(' ')
    .trim();
}

/** A client's item as the server keeps it (its audio bytes are transcribed elsewhere or dropped: never echoed). */
export function storedItem(input: RealtimeItemInput): RealtimeItem {
  const common = { id: input.id ?? realtimeId('item'), object: 'realtime.item' as const, status: 'completed' as const };
  switch (input.type) {
    case 'message':
      return {
        ...common,
        type: 'message',
        role: input.role,
        content: input.content.map((part) =>
          part.type === 'input_text' || part.type === 'output_text'
            ? { type: part.type, text: part.text }
            : { type: part.type, transcript: part.transcript ?? null },
        ),
      };
    case 'function_call':
      return { ...common, type: 'function_call', call_id: input.call_id ?? realtimeId('call'), name: input.name, arguments: input.arguments };
    case 'function_call_output':
      return { ...common, type: 'function_call_output', call_id: input.call_id, output: input.output };
  }
}

/**
 * The conversation of a Realtime API session: items in order, inserted after a given item, deleted, truncated (an
 * assistant's audio answer keeps the words heard up to `audio_end_ms`), and read as the chat messages the model is
 * asked with (`function_call`s become the assistant's `tool_calls`, their outputs `tool` messages).
 *
 * @example
 * const items = new RealtimeItems();
 * items.add(storedItem(input), undefined);
 * const messages = items.messages('You are Ada.');
 */
export class RealtimeItems {
  private readonly items: StoredItem[] = [];

  get(id: string): RealtimeItem | undefined {
    return this.items.find((stored) => stored.item.id === id)?.item;
  }

  /** The id of the last item, or null. */
  get lastId(): string | null {
    return this.items.at(-1)?.item.id ?? null;
  }

  /** Inserts `item` after `previousId` (`root`: first; undefined or null: last); answers the id before it. */
  add(item: RealtimeItem, previousId?: string | null): string | null {
    if (this.get(item.id)) throw new RealtimeRequestError(`Item with item_id '${item.id}' already exists.`, 'item.id', 'duplicate_item_id');
    if (item.type === 'function_call_output' && !this.items.some((stored) => stored.item.type === 'function_call' && stored.item.call_id === item.call_id)) {
      throw new RealtimeRequestError(`No function_call item has call_id '${item.call_id ?? ''}'.`, 'item.call_id', 'invalid_value');
    }
    let index = this.items.length;
    if (previousId === 'root') index = 0;
    else if (previousId) {
      const at = this.items.findIndex((stored) => stored.item.id === previousId);
      if (at < 0) throw new RealtimeRequestError(`Item with item_id '${previousId}' not found.`, 'previous_item_id', 'item_not_found');
      index = at + 1;
    }
    this.items.splice(index, 0, { item });
    return index === 0 ? null : this.items[index - 1]!.item.id;
  }

  /** Keeps an assistant audio answer's segments (they grow as it is spoken). */
  recordAudio(id: string, segments: SpokenSegment[], durationMs: number): void {
    const stored = this.items.find((candidate) => candidate.item.id === id);
    if (stored) stored.audio = { segments, durationMs };
  }

  delete(id: string): void {
    const index = this.items.findIndex((stored) => stored.item.id === id);
    if (index < 0) throw new RealtimeRequestError(`Item with item_id '${id}' not found.`, 'item_id', 'item_not_found');
    this.items.splice(index, 1);
  }

  /** Cuts an assistant's audio answer at `audioEndMs`: its transcript keeps the words heard. */
  truncate(id: string, contentIndex: number, audioEndMs: number): void {
    const stored = this.items.find((candidate) => candidate.item.id === id);
    if (!stored) throw new RealtimeRequestError(`Item with item_id '${id}' not found.`, 'item_id', 'item_not_found');
    const part = stored.item.content?.[contentIndex];
    if (stored.item.role !== 'assistant' || part?.type !== 'output_audio' || !stored.audio) {
      throw new RealtimeRequestError('Only the audio of an assistant message can be truncated.', 'content_index', 'invalid_value');
    }
    if (audioEndMs > Math.ceil(stored.audio.durationMs)) {
      throw new RealtimeRequestError(
        `audio_end_ms (${audioEndMs}) is past the end of the item's audio (${Math.round(stored.audio.durationMs)} ms).`,
        'audio_end_ms',
        'invalid_value',
      );
    }
    part.transcript = textUpTo(stored.audio.segments, audioEndMs);
    stored.audio = { segments: stored.audio.segments.filter((segment) => segment.startMs < audioEndMs), durationMs: audioEndMs };
  }

  /** The model's messages: the instructions, then every item with words. */
  messages(instructions: string): ChatMessage[] {
    const messages: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
    for (const { item } of this.items) {
      const last = messages.at(-1);
      if (item.type === 'function_call') {
        const call: ChatMessageToolCall = { id: item.call_id!, type: 'function', function: { name: item.name!, arguments: item.arguments ?? '' } };
        if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
        else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      } else if (item.type === 'function_call_output') {
        messages.push({ role: 'tool', tool_call_id: item.call_id!, content: item.output ?? '' });
      } else {
        const text = itemText(item);
        if (text)
          messages.push(item.role === 'assistant' ? { role: 'assistant', content: text } : { role: item.role === 'system' ? 'system' : 'user', content: text });
      }
    }
    return messages;
  }
}
