import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiClient } from '../../src/client/openai.js';
import { ChatCompletionChunk } from '../../src/contract/chat.js';
import { ModerationError } from '../../src/errors/api-error.js';
import type { ChatDelta } from '../../src/server/engines/llm/chat-model.js';
import { moderatedDeltas } from '../../src/server/engines/llm/moderated-deltas.js';
import { ModerationSegmenter } from '../../src/server/engines/llm/moderation-segmenter.js';
import { WordListModerator } from '../../src/server/domain/voices/word-list-moderator.js';
import { storeKinds } from '../support/databases.js';
import { startFakeOpenAiUpstream, textChunks, toolCallChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { readEvents, readEventsUntil } from './sse-reader.js';

const text = (value: string): ChatDelta => ({ type: 'text', text: value });

/** A model's deltas from a list; records what the transform pulled and whether it closed the source. */
function scriptedSource(deltas: readonly ChatDelta[], log: string[]) {
  const state = { closed: false, pulled: 0 };
  const source = (async function* () {
    try {
      for (const delta of deltas) {
        state.pulled += 1;
        log.push(`pull ${delta.type === 'text' ? JSON.stringify(delta.text) : delta.type}`);
        yield delta;
      }
    } finally {
      state.closed = true;
    }
  })();
  return { source, state };
}

/** A moderator that logs every call and refuses text containing `refuse`. */
function countingModerator(log: string[], refuse?: string) {
  const calls: string[] = [];
  const moderate = async (value: string) => {
    calls.push(value);
    log.push(`check ${JSON.stringify(value)}`);
    if (refuse !== undefined && value.includes(refuse)) throw new ModerationError('the text was refused by moderation (test)');
  };
  return { calls, moderate };
}

async function drain(deltas: AsyncIterable<ChatDelta>, log: string[]): Promise<ChatDelta[]> {
  const out: ChatDelta[] = [];
  for await (const delta of deltas) {
    out.push(delta);
    log.push(`send ${delta.type === 'text' ? JSON.stringify(delta.text) : delta.type}`);
  }
  return out;
}

describe('ModerationSegmenter', () => {
  it('cuts at confirmed sentence ends and line breaks, with the offset past each sentence and its whitespace', () => {
    const segmenter = new ModerationSegmenter();
    expect(segmenter.push('Dr. Smith is here. It costs 3')).toEqual([{ text: 'Dr. Smith is here.', end: 19 }]);
    expect(segmenter.push('.5 dollars')).toEqual([]); // "3." was not a sentence end
    expect(segmenter.push('!\n- one item\n- two')).toEqual([
      { text: 'It costs 3.5 dollars!', end: 41 },
      { text: '- one item', end: 52 },
    ]);
    expect(segmenter.finish()).toEqual([{ text: '- two', end: 57 }]);
    expect(segmenter.received).toBe(57);
    // An opening clause is not a sentence (the TTS segmenter's first-clause rule is off).
    expect(segmenter.push('Well, I think so')).toEqual([]);
  });

  it('cuts an unpunctuated run after 400 characters, at a space', () => {
    const segmenter = new ModerationSegmenter();
    const sentences = segmenter.push('word '.repeat(200));
    expect(sentences.length).toBeGreaterThanOrEqual(2);
    expect(sentences.every((sentence) => sentence.text.length <= 400)).toBe(true);
  });
});

describe('moderatedDeltas', () => {
  it('checks each sentence once, then releases its chunks in order and unchanged; a chunk starting the next sentence waits for it', async () => {
    const log: string[] = [];
    const deltas = [
      text(''),
      text('Hello'),
      text(' there'),
      text('.'),
      text(' How are'),
      text(' you?'),
      text(' Fine,'),
      text(' thanks'),
      { type: 'finish', reason: 'stop' } as const,
    ];
    const { source } = scriptedSource(deltas, log);
    const { calls, moderate } = countingModerator(log);
    const out = await drain(moderatedDeltas(source, moderate, new AbortController().signal), log);

    expect(out).toEqual(deltas);
    // One call per sentence, each with the sentence before it as context.
    expect(calls).toEqual(['Hello there.', 'Hello there. How are you?', 'How are you? Fine, thanks']);
    expect(log).toEqual([
      'pull ""',
      'send ""', // the empty role chunk holds no text
      'pull "Hello"',
      'pull " there"',
      'pull "."',
      'pull " How are"', // its space confirms the sentence end
      'check "Hello there."',
      'send "Hello"',
      'send " there"',
      'send "."',
      'pull " you?"',
      'pull " Fine,"',
      'check "Hello there. How are you?"',
      'send " How are"',
      'send " you?"',
      'pull " thanks"',
      'pull finish',
      'check "How are you? Fine, thanks"', // the tail is checked before the finish delta
      'send " Fine,"',
      'send " thanks"',
      'send finish',
    ]);
  });

  it('a chunk holding a sentence end and the start of the next is released only once both are checked', async () => {
    const log: string[] = [];
    const { source } = scriptedSource([text('One'), text(' two. Three'), text(' four.'), text(' Five')], log);
    const { calls, moderate } = countingModerator(log);
    const out = await drain(moderatedDeltas(source, moderate, new AbortController().signal), log);
    expect(out.map((delta) => (delta as { text: string }).text)).toEqual(['One', ' two. Three', ' four.', ' Five']);
    expect(calls).toEqual(['One two.', 'One two. Three four.', 'Three four. Five']);
    expect(log.indexOf('send "One"')).toBeGreaterThan(log.indexOf('check "One two."'));
    expect(log.indexOf('send " two. Three"')).toBeGreaterThan(log.indexOf('check "One two. Three four."'));
  });

  it('checks and releases held text before a tool-call delta; usage passes at once; refusal text is checked apart', async () => {
    const log: string[] = [];
    const toolCall: ChatDelta = { type: 'tool-call', index: 0, id: 'call_1', name: 'lookup', arguments: '{}' };
    const usage: ChatDelta = { type: 'usage', usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } };
    const deltas: ChatDelta[] = [
      text('Let me'),
      text(' check'),
      toolCall,
      { type: 'refusal', text: 'I cannot' },
      text(' do that'),
      { type: 'finish', reason: 'tool_calls' },
      usage,
    ];
    const { source } = scriptedSource(deltas, log);
    const { calls, moderate } = countingModerator(log);
    const out = await drain(moderatedDeltas(source, moderate, new AbortController().signal), log);
    expect(out).toEqual(deltas);
    expect(calls).toEqual(['Let me check', 'Let me check I cannot', 'I cannot do that']);
    expect(log.slice(log.indexOf('pull tool-call'))).toEqual([
      'pull tool-call',
      'check "Let me check"',
      'send "Let me"',
      'send " check"',
      'send tool-call',
      'pull refusal',
      'pull " do that"',
      'check "Let me check I cannot"', // a switch between refusal and content ends a run
      'send refusal',
      'pull finish',
      'check "I cannot do that"',
      'send " do that"',
      'send finish',
      'pull usage',
      'send usage',
    ]);
  });

  it('a flagged sentence is never released: the iteration throws the moderator error and closes the source', async () => {
    const log: string[] = [];
    const { source, state } = scriptedSource(
      [text('Fine.'), text(' Refuse'), text(' this.'), text(' Later'), text(' text.'), { type: 'finish', reason: 'stop' }],
      log,
    );
    const { moderate } = countingModerator(log, 'Refuse');
    const out: ChatDelta[] = [];
    const error = await (async () => {
      for await (const delta of moderatedDeltas(source, moderate, new AbortController().signal)) out.push(delta);
    })().catch((caught: unknown) => caught);
    expect(ModerationError.isInstance(error)).toBe(true);
    expect(out).toEqual([text('Fine.')]);
    expect(state.closed).toBe(true);
    expect(state.pulled).toBe(4); // stopped at the chunk that confirmed the flagged sentence
  });
});

describe.each(await storeKinds())('streamed answers with metadata.moderation (%s)', (kind) => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;
  let baseUrl: string;
  let openai: OpenAI;
  let llm: string;
  let humans = 0;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer(kind);
    baseUrl = await test.server.listen(0, '127.0.0.1');
    openai = await createOpenAiClient({ baseUrl, apiKey: test.server.apiKey, openAiOptions: { maxRetries: 0 } });
    llm = (await test.client.llms.create({ name: 'fake', description: 'fake upstream', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
  });
  afterAll(async () => {
    await test.close();
    await upstream.close();
  });

  const human = () => `moderated-${kind}-${(humans += 1)}`;
  const post = (body: Record<string, unknown>, humanId: string) =>
    fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey, 'x-human-id': humanId },
      body: JSON.stringify({ model: llm, stream: true, messages: [{ role: 'user', content: 'Tell me something.' }], ...body }),
    });
  const contentOf = (data: string) => (JSON.parse(data) as ChatCompletionChunk).choices[0]?.delta.content;

  it('a clean answer arrives complete, in exactly the chunks the upstream sent (openai client)', async () => {
    const words = ['The', ' sea', ' is', ' calm', ' today.', ' Boats', ' leave', ' at', ' dawn', '.', ' Nobody', ' minds', ' the', ' rain']; // the last sentence has no end mark
    upstream.enqueue({ kind: 'stream', chunks: textChunks(words), delayMs: 5 });
    const stream = await openai.chat.completions.create({
      model: llm,
      stream: true,
      metadata: { moderation: 'true' },
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(['', ...words, null]);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');

    // Text before a tool call is checked and sent before the call's deltas, which pass unchanged.
    const calls = [{ id: 'call_a', name: 'get_weather', argumentFragments: ['{"city":', '"Oslo"}'] }];
    const [opening, ...toolChunks] = toolCallChunks(calls);
    upstream.enqueue({ kind: 'stream', chunks: [opening!, { delta: { content: 'Let me' } }, { delta: { content: ' look.' } }, ...toolChunks] });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const withTool = await openai.chat.completions.create({
      model: llm,
      stream: true,
      tools,
      metadata: { moderation: 'true' },
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
    });
    const order: string[] = [];
    for await (const chunk of withTool) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) order.push(delta.content);
      for (const call of delta?.tool_calls ?? []) order.push(`tool:${call.function?.arguments ?? ''}`);
    }
    expect(order).toEqual(['Let me', ' look.', 'tool:', 'tool:{"city":', 'tool:"Oslo"}']);
  });

  it('a flagged second sentence: the first is sent, no piece of the flagged one, then a moderation_error event and [DONE]; the upstream is aborted, tokens recorded', async () => {
    const first = ['Sure', ',', ' here', ' it', ' is', '.'];
    const flagged = [' Listen', ':', ' I', ' will', ' kill', ' you', '.'];
    const after = Array.from({ length: 30 }, (_, index) => ` more${index}`);
    upstream.enqueue({ kind: 'stream', chunks: textChunks([...first, ...flagged, ...after]), delayMs: 20 });
    const humanId = human();
    const response = await post({ metadata: { moderation: true, campaign: 'm1' } }, humanId);
    expect(response.status).toBe(200);
    const seen = upstream.requests.at(-1)!;
    const events = await readEvents(response, performance.now());

    expect(events.at(-1)).toMatchObject({ event: undefined, data: '[DONE]' });
    const error = events.at(-2)!;
    expect(error.event).toBe('error');
    expect(JSON.parse(error.data)).toEqual({
      error: { type: 'moderation_error', code: 'moderation_error', message: expect.stringContaining('refused by moderation (violence)') },
    });
    const chunks = events.slice(0, -2);
    expect(chunks.every((event) => event.event === undefined)).toBe(true);
    expect(chunks.map((event) => contentOf(event.data))).toEqual(['', ...first]);
    const sent = chunks.map((event) => contentOf(event.data) ?? '').join('');
    expect(sent).toBe('Sure, here it is.');
    for (const word of ['Listen', 'will', 'kill', 'you']) expect(sent).not.toContain(word);

    // The upstream was still streaming (30 more chunks) and saw the request aborted: it never finished its answer.
    await upstream.waitForAbort(seen, 20_000);
    expect(seen.finishedAt).toBeUndefined();

    const rows = await test.server.services.store.db
      .selectFrom('usage_records')
      .selectAll()
      .where('human', '=', humanId)
      .where('type', '=', 'token_cnt')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value).toBeGreaterThan(0);
    expect(JSON.parse(rows[0]!.metadata)).toMatchObject({ campaign: 'm1', stream: true, outcome: 'aborted' });
  });

  it('the openai client sees the first sentence, then an APIError with code moderation_error', async () => {
    upstream.enqueue({ kind: 'stream', chunks: textChunks(['All', ' good', '.', ' Nobody', ' would', ' miss', ' you', '.', ' End', '.']), delayMs: 5 });
    const stream = await openai.chat.completions.create({
      model: llm,
      stream: true,
      metadata: { moderation: 'true' },
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let received = '';
    const failure = await (async () => {
      for await (const chunk of stream) received += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).code).toBe('moderation_error');
    expect((failure as InstanceType<typeof OpenAI.APIError>).type).toBe('moderation_error');
    expect(received).toBe('All good.');
  });

  it('stays incremental: each sentence is sent once it is checked, while the upstream is still streaming', async () => {
    // The upstream sends two sentences and the start of a third, then stalls: never ends the third, nor the stream.
    const words = ['One', ' short', ' line', '.', ' Then', ' another', ' one', '.', ' And', ' a', ' last'];
    upstream.enqueue({ kind: 'stream', chunks: textChunks(words).slice(0, -1), after: 'stall' });
    const response = await post({ metadata: { moderation: true } }, human());
    const seen = upstream.requests.at(-1)!;
    // The two sentences (confirmed by the word after each) come through; the unfinished third is held back.
    const events = await readEventsUntil(response, (received) => received.length === 9, 20_000);
    expect(events.map((event) => contentOf(event.data))).toEqual(['', ...words.slice(0, 8)]);
    expect(seen.finishedAt).toBeUndefined();
    await upstream.waitForAbort(seen, 20_000);
  });

  it('without metadata.moderation nothing is held back: the words arrive while the upstream is still streaming', async () => {
    const words = ['Unmoderated', ' words', ' flow', ' one', ' by', ' one', ' without', ' any', ' sentence', ' end'];
    // No sentence end, no finish, then a stall: with moderation none of these words could be released yet.
    upstream.enqueue({ kind: 'stream', chunks: textChunks(words).slice(0, -1), after: 'stall' });
    const response = await post({}, human());
    const seen = upstream.requests.at(-1)!;
    const events = await readEventsUntil(response, (received) => received.length === words.length + 1, 20_000);
    expect(events.map((event) => contentOf(event.data))).toEqual(['', ...words]);
    expect(seen.finishedAt).toBeUndefined();
    await upstream.waitForAbort(seen, 20_000);

    // The same answer moderated, finished: the text without a sentence end is checked whole at the finish, then all of
    // it is sent, in the upstream's chunks (that it waits for the finish: moderatedDeltas, above).
    upstream.enqueue({ kind: 'stream', chunks: textChunks(words) });
    const moderated = await post({ metadata: { moderation: true } }, human());
    const moderatedEvents = await readEvents(moderated, performance.now());
    expect(moderatedEvents.map((event) => (event.data === '[DONE]' ? '[DONE]' : contentOf(event.data)))).toEqual(['', ...words, null, '[DONE]']);
  });

  it('the flagged answers scripted above hold phrases of the built-in word list, the clean one none', async () => {
    const moderator = new WordListModerator();
    expect((await moderator.check('Nobody would miss you.')).flagged).toBe(true);
    expect((await moderator.check('Sure, here it is. Listen: I will kill you.')).flagged).toBe(true);
    expect((await moderator.check('The sea is calm today. Boats leave at dawn.')).flagged).toBe(false);
  });
});

describe('streamed answers checked by an OpenAI-compatible moderation endpoint', () => {
  let moderation: Server;
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;
  let baseUrl: string;
  let llm: string;
  const inputs: string[] = [];

  beforeAll(async () => {
    // Flags text containing "forbidden"; fails (500) on text containing "explode".
    moderation = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { input } = JSON.parse(body) as { input: string };
        inputs.push(input);
        if (input.includes('explode')) return void response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
        const flagged = input.includes('forbidden');
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: 'modr-1', results: [{ flagged, categories: { harassment: flagged }, category_scores: {} }] }));
      });
    });
    await new Promise<void>((resolve) => moderation.listen(0, '127.0.0.1', resolve));
    const port = (moderation.address() as AddressInfo).port;
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer('sqlite', { config: { speech: { moderationBaseUrl: `http://127.0.0.1:${port}/v1`, moderationModel: 'mod-test' } } });
    baseUrl = await test.server.listen(0, '127.0.0.1');
    llm = (await test.client.llms.create({ name: 'fake', description: 'fake upstream', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl })).id;
  });
  afterAll(async () => {
    await test.close();
    await upstream.close();
    await new Promise((resolve) => moderation.close(resolve));
  });

  const stream = async (words: string[]) => {
    upstream.enqueue({ kind: 'stream', chunks: textChunks(words) });
    inputs.length = 0;
    const sentAt = performance.now();
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey },
      body: JSON.stringify({ model: llm, stream: true, metadata: { moderation: true }, messages: [{ role: 'user', content: 'Go on.' }] }),
    });
    return readEvents(response, sentAt);
  };
  const texts = (events: Awaited<ReturnType<typeof stream>>) =>
    events
      .filter((event) => event.event === undefined && event.data !== '[DONE]')
      .map((event) => (JSON.parse(event.data) as ChatCompletionChunk).choices[0]?.delta.content);

  it('sends the endpoint each sentence with the one before it, and stops at the flagged one', async () => {
    const events = await stream(['Fine', '.', ' This', ' is', ' forbidden', ' talk', '.', ' Never', ' sent', '.']);
    expect(inputs).toEqual(['Go on.', 'Fine.', 'Fine. This is forbidden talk.']);
    expect(texts(events)).toEqual(['', 'Fine', '.']);
    expect(events.at(-2)!.event).toBe('error');
    expect(JSON.parse(events.at(-2)!.data)).toMatchObject({
      error: { type: 'moderation_error', code: 'moderation_error', message: expect.stringContaining('harassment') },
    });
    expect(events.at(-1)!.data).toBe('[DONE]');
  });

  it('a failing endpoint ends the stream with an upstream_error event; nothing unchecked is sent', async () => {
    const events = await stream(['Fine', '.', ' Then', ' explode', '.', ' After', '.']);
    expect(texts(events)).toEqual(['', 'Fine', '.']);
    expect(JSON.parse(events.at(-2)!.data)).toMatchObject({
      error: { type: 'upstream_error', code: 'upstream_error', message: expect.stringContaining('moderation check failed') },
    });
    expect(events.at(-1)!.data).toBe('[DONE]');
  });
});
