import { describe, expect, it } from 'vitest';
import { RealtimeItems, storedItem } from './realtime-items.js';
import { RealtimeRequestError } from './realtime-errors.js';

const user = (id: string, text: string) => storedItem({ id, type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('RealtimeItems', () => {
  it('inserts after an item, first with root, last by default; the model reads them in that order', () => {
    const items = new RealtimeItems();
    items.add(user('a', 'first'));
    items.add(user('c', 'third'));
    expect(items.add(user('b', 'second'), 'a')).toBe('a');
    expect(items.add(user('z', 'zero'), 'root')).toBeNull();
    expect(items.messages('Be brief.')).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'zero' },
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
      { role: 'user', content: 'third' },
    ]);
    expect(() => items.add(user('a', 'again'))).toThrow(RealtimeRequestError);
    expect(() => items.add(user('d', 'x'), 'missing')).toThrow(/not found/);
  });

  it('function calls become the assistant’s tool_calls and their outputs tool messages; an output without its call is refused', () => {
    const items = new RealtimeItems();
    expect(() => items.add(storedItem({ type: 'function_call_output', call_id: 'call_1', output: '{}' }))).toThrow(/call_id 'call_1'/);
    items.add(user('u', 'Weather in Paris?'));
    items.add(storedItem({ type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }));
    items.add(storedItem({ type: 'function_call_output', call_id: 'call_1', output: 'sunny' }));
    expect(items.messages('')).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]);
  });

  it('truncates an assistant audio answer to the words spoken before audio_end_ms, and refuses past its end', () => {
    const items = new RealtimeItems();
    const answer = storedItem({ id: 'ans', type: 'message', role: 'assistant', content: [{ type: 'output_audio', transcript: 'One two. Three four.' }] });
    items.add(answer);
    items.recordAudio(
      'ans',
      [
        { text: 'One two.', startMs: 0, durationMs: 1000 },
        { text: 'Three four.', startMs: 1000, durationMs: 1000 },
      ],
      2000,
    );
    expect(() => items.truncate('ans', 0, 2500)).toThrow(/past the end/);
    items.truncate('ans', 0, 1500);
    expect(items.get('ans')!.content![0]!.transcript).toBe('One two. Three');
    expect(items.messages('')).toEqual([{ role: 'assistant', content: 'One two. Three' }]);
    items.add(user('u', 'hi'));
    expect(() => items.truncate('u', 0, 10)).toThrow(/Only the audio of an assistant message/);
  });
});
