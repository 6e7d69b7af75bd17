import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamChatCompletion } from '../../src/client/chat-stream.js';
import { UpstreamError } from '../../src/index.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Runs in Node, not happy-dom: the server's upstream call goes through the `openai` package, which
// refuses to run in a browser-like global scope. fetch-event-source itself touches only these two
// browser globals (with `openWhenHidden`), so the test provides them for its duration.
const browserGlobals = globalThis as unknown as { window?: unknown; document?: unknown };

describe('streamChatCompletion error events', () => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;

  beforeAll(async () => {
    browserGlobals.window = { setTimeout, clearTimeout };
    browserGlobals.document = { addEventListener() {}, removeEventListener() {}, hidden: false };
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer('sqlite');
  });
  afterAll(async () => {
    delete browserGlobals.window;
    delete browserGlobals.document;
    await test.close();
    await upstream.close();
  });

  it('yields the chunks before an upstream failure, then rejects with UpstreamError carrying its message (naming the LLM)', async () => {
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) => test.server.fetch(new Request(input, init))) as typeof globalThis.fetch;
    const llm = await test.client.llms.create({ name: 'fake', description: '', headers: [], model: 'm', post_url: upstream.chatUrl });
    upstream.enqueue({ kind: 'stream', chunks: [{ delta: { role: 'assistant', content: 'half' } }], after: 'error-event' });
    let text = '';
    const failed = (async () => {
      for await (const chunk of streamChatCompletion({
        baseUrl: 'http://palaver.test',
        apiKey: test.server.apiKey,
        fetch,
        request: { model: llm.id, messages: [{ role: 'user', content: 'x' }] },
      })) {
        text += chunk.choices[0]?.delta.content ?? '';
      }
    })();
    await expect(failed).rejects.toSatisfy(
      (error: unknown) => UpstreamError.isInstance(error) && /^LLM 'fake' \(llm_\w+\): .*failed mid-stream/.test((error as Error).message),
    );
    expect(text).toBe('half');
  });
});
