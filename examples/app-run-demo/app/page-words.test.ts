import { describe, expect, it } from 'vitest';
import { graphOf } from '@palaver/sdk-core/testing';
import { graphRoles } from './app-graph.js';
import { describeValue, shownPads, typedValue } from './pad-values.js';
import { nextActivity, type RunActivity } from './run-activity.js';
import { endWords, problemWords, runWords } from './words.js';

const nodes = graphOf(
  [
    { id: 'stt', type: 'STT' },
    { id: 'user_message', type: 'CreateContextMessage', values: { role: 'user' } },
    { id: 'system_prompt', type: 'ContextMessage', values: { role: 'system', content: 'Be brief.' } },
    { id: 'context', type: 'LLMContext', values: { num_inserts: 2 } },
    { id: 'llm', type: 'OpenAICompatibleLLM' },
    { id: 'tts', type: 'TTS' },
  ],
  [
    { from: 'stt.final_transcription', to: 'user_message.content' },
    { from: 'user_message.context_message', to: 'context.insert_0' },
    { from: 'system_prompt.context_message', to: 'context.system_message' },
    { from: 'context.source', to: 'llm.context' },
    { from: 'llm.text_stream', to: 'tts.text' },
  ],
).nodes;
const node = (id: string) => nodes.find((candidate) => candidate.id === id)!;

describe('the pads the page shows', () => {
  it('offers the settable pads as controls and shows computed ones as values; linked, unused and shaping pads stay out', () => {
    const prompt = shownPads(node('system_prompt'));
    expect(prompt.map((shown) => [shown.pad, shown.dataType, shown.editable])).toEqual([
      ['role', 'context_message_role', true],
      ['content', 'string', true],
      ['context_message', 'context_message', false],
    ]);
    expect(prompt[1]).toMatchObject({ label: 'System prompt', multiline: true, stored: { type: 'string', value: 'Be brief.' } });
    expect(prompt[0]!.options).toEqual(['system', 'user', 'assistant', 'tool']);
    // `base_url`/`api_key` are ignored by the platform, `context` is linked; the LLM's model and length remain.
    expect(shownPads(node('llm')).map((shown) => shown.pad)).toEqual(['model', 'max_context_len']);
    // `num_inserts` shapes the node (its pads), `system_message` is linked; the conversation is a value.
    expect(shownPads(node('context')).map((shown) => `${shown.pad}:${shown.editable ? 'set' : 'read'}`)).toEqual([
      'max_non_system_messages:set',
      'max_videos:set',
      'max_audios:set',
      'max_images:set',
      'source:read',
    ]);
    expect(shownPads(node('tts')).map((shown) => shown.label)).toEqual(['Voice']);
  });

  it('types what was entered by the pad, and says in words what does not fit', () => {
    const [max] = shownPads(node('context'));
    expect(typedValue(max!, '12')).toEqual({ type: 'integer', value: 12 });
    expect(() => typedValue(max!, '1.5')).toThrow('Max non system messages takes a whole number.');
    expect(() => typedValue(max!, '-1')).toThrow('Max non system messages takes a number from 0 to …');
    expect(typedValue({ dataType: 'context_message_role', label: 'Role' }, 'assistant')).toEqual({ type: 'context_message_role', value: 'assistant' });
    expect(typedValue({ dataType: 'string', label: 'Voice' }, '')).toEqual({ type: 'string', value: '' });
  });

  it('reads values as words', () => {
    expect(describeValue({ type: 'boolean', value: false })).toBe('no');
    expect(
      describeValue({
        type: 'list',
        count: 1,
        items: [
          { type: 'context_message', role: { type: 'context_message_role', value: 'system' }, content: [{ content_type: 'text', text: 'Hi' }], tool_calls: [] },
        ],
      }),
    ).toBe('1 message');
    expect(
      describeValue({
        type: 'context_message',
        role: { type: 'context_message_role', value: 'system' },
        content: [{ content_type: 'text', text: 'Be brief.' }],
        tool_calls: [],
      }),
    ).toBe('system: Be brief.');
    expect(describeValue(null)).toBe('—');
  });

  it("finds the graph's text entry, conversation and speaking nodes by type", () => {
    expect(graphRoles(nodes)).toEqual({
      textEntry: { node: 'user_message', pad: 'content' },
      conversation: { node: 'context', pad: 'source' },
      stt: 'stt',
      llm: 'llm',
      tts: 'tts',
    });
    const chat = graphOf([
      { id: 'chat', type: 'ChatInput' },
      { id: 'user_message', type: 'CreateContextMessage', values: { role: 'user' } },
    ]).nodes;
    expect(graphRoles(chat).textEntry).toEqual({ node: 'chat', pad: 'output' });
  });
});

describe('the run in words', () => {
  const roles = { stt: 'stt', llm: 'llm', tts: 'tts' };
  const walk = (events: string[], from: RunActivity = 'listening') =>
    events.map((event) => {
      const [nodeId, pad] = event.split('.') as [string, string];
      from = nextActivity(from, roles, nodeId, pad) ?? from;
      return from;
    });

  it('follows the pads: heard, thinking, speaking, listening again; the human speaking interrupts', () => {
    expect(walk(['stt.speech_started', 'stt.speech_ended', 'llm.started', 'llm.first_token', 'llm.finished', 'tts.complete_transcription'])).toEqual([
      'hearing',
      'listening',
      'thinking',
      'speaking',
      'speaking',
      'listening',
    ]);
    expect(walk(['llm.first_token', 'stt.speech_started', 'tts.complete_transcription'])).toEqual(['speaking', 'hearing', 'hearing']);
    expect(nextActivity('speaking', { stt: 'stt', llm: 'llm', tts: undefined }, 'llm', 'finished')).toBe('listening');
  });

  it('says the state and the end as a visitor reads them', () => {
    expect(runWords({ status: 'not_connected', starting: false, ended: undefined }, 'listening')).toBe('Ready to start');
    expect(runWords({ status: 'connecting', starting: true, ended: undefined }, 'listening')).toBe('Starting the app…');
    expect(runWords({ status: 'waiting_for_agent', starting: false, ended: undefined }, 'listening')).toBe('Waiting for the app to join…');
    expect(runWords({ status: 'connected', starting: false, ended: undefined }, 'thinking')).toBe('Thinking…');
    expect(runWords({ status: 'not_connected', starting: false, ended: { reason: 'client' } }, 'listening')).toBe('Not running');
    expect(endWords({ reason: 'client' })).toBe('The run ended: you left.');
    expect(endWords({ reason: 'connection_lost' })).toBe('The run ended: the connection dropped and could not be restored.');
    expect(problemWords(Object.assign(new Error("app 'app_1' not found"), { name: 'NotFoundError', status: 404 }))).toBe("App 'app_1' not found");
    expect(problemWords(Object.assign(new Error('Requested device not found'), { name: 'NotFoundError' }))).toBe(
      'No microphone was found. You can still type your messages.',
    );
  });
});
