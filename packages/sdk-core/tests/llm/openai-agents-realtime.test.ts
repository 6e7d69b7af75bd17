import { RealtimeAgent, RealtimeSession, tool } from '@openai/agents-realtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPENAI_REALTIME_PATH } from '../../src/contract/wire.js';
import { offlineAnswer } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { RATE, spoken } from './realtime-test-client.js';

const sttAvailable = pocketsphinxAvailable();

/** The assistant's words in a session's history (text, or audio transcripts), in order. */
function assistantWords(session: RealtimeSession): string[] {
  return session.history.flatMap((item) =>
    item.type === 'message' && item.role === 'assistant'
      ? item.content.map((part) => ('text' in part ? part.text : 'transcript' in part ? part.transcript : '') ?? '').filter(Boolean)
      : [],
  );
}

describe("@openai/agents-realtime's RealtimeSession over its websocket transport, answered by the built-in engines", () => {
  let test: TestServer;
  let address: string;
  const sessions: RealtimeSession[] = [];

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    const url = await test.server.listen(0, '127.0.0.1');
    address = `${url.replace('http', 'ws')}${OPENAI_REALTIME_PATH}?model=builtin-offline`;
  });

  afterAll(async () => {
    for (const session of sessions) session.close();
    await test?.close();
  });

  async function connected(agent: RealtimeAgent, outputModalities: Array<'text' | 'audio'>): Promise<{ session: RealtimeSession; errors: unknown[] }> {
    const session = new RealtimeSession(agent, { transport: 'websocket', model: 'builtin-offline', config: { outputModalities } });
    sessions.push(session);
    const errors: unknown[] = [];
    session.on('error', (error) => errors.push(error));
    await session.connect({ apiKey: test.server.apiKey, url: address });
    return { session, errors };
  }

  it('a typed message is answered; a tool the agent declares is called, run by the SDK, and its result said', async () => {
    const calls: string[] = [];
    const weather = tool({
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => {
        calls.push(city);
        return `sunny in ${city}`;
      },
    });
    const agent = new RealtimeAgent({ name: 'Assistant', instructions: 'Be brief.', tools: [weather] });
    const { session, errors } = await connected(agent, ['text']);

    session.sendMessage('Hello there.');
    await eventually(() => expect(assistantWords(session)).toEqual([offlineAnswer('Hello there.')]), 20_000);

    session.sendMessage('What is the weather in Paris?');
    await eventually(() => expect(calls).toEqual(['Paris']), 20_000);
    await eventually(() => expect(assistantWords(session).at(-1)).toBe('The get_weather tool returned: sunny in Paris'), 20_000);
    expect(errors).toEqual([]);
  }, 60_000);

  it.skipIf(!sttAvailable)(
    'speech sent with sendAudio is heard (its semantic_vad default is the adaptive end of turn) and answered with audio',
    async () => {
      const agent = new RealtimeAgent({ name: 'Assistant', instructions: 'Be brief.' });
      const { session, errors } = await connected(agent, ['audio']);
      const audio: ArrayBuffer[] = [];
      session.on('audio', (event) => audio.push(event.data));
      const pcm = await spoken(test.server.services.speech, 'Please call me tomorrow morning.');
      const silence = new Int16Array(RATE * 1.5);
      const chunk = (RATE * 40) / 1000;
      const started = performance.now();
      for (const [index, block] of [pcm, silence].entries()) {
        for (let offset = 0; offset < block.length; offset += chunk) {
          const part = block.slice(offset, offset + chunk);
          session.sendAudio(part.buffer);
          const sent = (index === 0 ? offset : pcm.length + offset) + chunk;
          const aheadMs = (sent / RATE) * 1000 - (performance.now() - started);
          if (aheadMs > 0) await new Promise((resolve) => setTimeout(resolve, aheadMs));
        }
      }
      // The offline model repeats what it heard (Pocketsphinx may mishear a word or two of Flite's voice).
      await eventually(() => expect(assistantWords(session).at(-1)).toMatch(/^You said: "please call me .+"\. I am the Palaver offline test model/i), 30_000);
      const bytes = audio.reduce((total, data) => total + data.byteLength, 0);
      expect(bytes / 2 / RATE).toBeGreaterThan(2);
      expect(errors).toEqual([]);
    },
    60_000,
  );
});
