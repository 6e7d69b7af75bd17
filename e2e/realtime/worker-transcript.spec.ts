import type { Page } from '@playwright/test';
import { createClient, type PalaverClient, type SDKSessionTranscription } from '@palaver/sdk-core';
import { createServer } from '@palaver/sdk-core/server';
import { startExampleWorker, stopExampleWorker, type ExampleWorker } from '../support/livekit-agents-worker.js';
import { chromiumAvailable, eventually, expect, test as base, type ConnectorFixtures } from './support/connector-fixture.js';

/**
 * Issue 30: a session answered by an unmodified LiveKit Agents worker (the example worker, which speaks only LiveKit's
 * protocol: `lk.transcription` delta streams, the human's words sent as theirs) has its transcript in the connector,
 * and lines sent while the client was away come back once, in order, after the resume, from the platform's observer
 * (decision 0123). A built-in agent's transcript stays its `message` packets, one line per utterance.
 */
const KEY = 'worker-transcript-key';
const SECRET = 'worker-transcript-secret-0123456789-0123456789';
const WORKER = { type: 'livekit_worker', agent_name: 'echo-agent' } as const;
const GREETING = 'Hello! Type something and I will echo it.';

type Line = { id: string; agent: boolean; final: boolean; text: string; created_at: string };

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const test = base.extend<{}, { palaver: ConnectorFixtures['palaver']; worker: ExampleWorker; client: PalaverClient }>({
  palaver: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await createServer({ env: { LIVEKIT_API_KEY: KEY, LIVEKIT_API_SECRET: SECRET }, config: { logLevel: 'warn' } });
      await server.listen(0, '127.0.0.1');
      // A participant without pings for 5 s is removed (LiveKit's 15 s otherwise): a short drop loses what was sent meanwhile.
      Object.assign(server.services.media.endpoint!.settings, { pingIntervalSeconds: 1, pingTimeoutSeconds: 5 });
      await use({ server, media: server.services.media });
      await server.close();
    },
    { scope: 'worker' },
  ],
  client: [async ({ palaver }, use) => use(createClient({ baseUrl: palaver.server.url!, apiKey: palaver.server.apiKey, maxRetries: 0 })), { scope: 'worker' }],
  worker: [
    async ({ palaver }, use) => {
      const worker = startExampleWorker(palaver.server.url!, { key: KEY, secret: SECRET });
      try {
        await eventually(() => expect(palaver.media.endpoint!.agentWorkers.hasWorker(WORKER.agent_name), worker.log()).toBe(true), 45_000);
        await use(worker);
      } finally {
        await stopExampleWorker(worker.process);
      }
    },
    { scope: 'worker' },
  ],
});

test.skip(!chromiumAvailable(), 'Chromium is not installed');

const lines = async (page: Page) => (await page.evaluate(() => window.connector.snapshot())).transcriptions as Line[];
const shown = (list: Line[]) => list.map((line) => [line.agent ? 'agent' : 'human', line.text, line.final]);

async function connect(page: Page, client: PalaverClient, baseUrl: string, human: string, general: object): Promise<string> {
  const { token } = await client.usage.createToken({ human });
  const config = { general, input: {}, output: {}, generative: { llm: 'builtin-offline' } };
  const joined = await page.evaluate(([jwt, url, body]) => window.connector.connect('', jwt, { baseUrl: url, config: body, microphone: false }), [
    token,
    baseUrl,
    config,
  ] as const);
  expect(joined.ok, JSON.stringify(joined)).toBe(true);
  return joined.snapshot.sessionId!;
}

test("a worker's lk.transcription streams are the connector's transcript: the agent's delta streams interim then final, the human's words as theirs", async ({
  palaver,
  client,
  worker,
  newPage,
}) => {
  const page = await newPage();
  try {
    await connect(page, client, palaver.server.url!, 'human_worker_lines', { agent: WORKER });
    await eventually(async () => expect(shown(await lines(page))).toEqual([['agent', GREETING, true]]), 30_000);
    await page.evaluate(() => window.connector.sendChat('hello worker'));
    await eventually(
      async () =>
        expect(shown(await lines(page))).toEqual([
          ['agent', GREETING, true],
          ['human', 'hello worker', true],
          ['agent', 'You said: hello worker', true],
        ]),
      20_000,
    );
    const transcript = await lines(page);
    expect(transcript.map((line) => Date.parse(line.created_at))).toEqual(transcript.map((line) => Date.parse(line.created_at)).sort((a, b) => a - b));
    // The answer grew word by word (one delta stream) before it was final: the `transcription` events show it.
    const answer = transcript[2]!;
    const versions = (await page.evaluate(() => window.connector.history())).transcriptionEvents
      .filter((event) => event.id === answer.id)
      .map((event) => event.text);
    expect(versions[0]).toBe('You');
    expect(versions.at(-1)).toBe('You said: hello worker');
  } catch (error) {
    throw new Error(`${(error as Error).message}\nworker log:\n${worker.log().slice(-3000)}`);
  } finally {
    await page.evaluate(() => window.connector.disconnect());
  }
});

test('lines a worker says while the client is gone come back after the resume, from the platform, once and in order', async ({
  palaver,
  client,
  worker,
  newPage,
}) => {
  test.setTimeout(120_000);
  const human = 'human_worker_replay';
  const page = await newPage();
  try {
    const sessionId = await connect(page, client, palaver.server.url!, human, { agent: WORKER });
    await eventually(async () => expect(shown(await lines(page))).toEqual([['agent', GREETING, true]]), 30_000);

    await page.context().setOffline(true);
    // The server removes the human once its pings stop: from then on nothing the room sends reaches this page.
    const endpoint = palaver.media.endpoint!;
    await eventually(() => expect(endpoint.clientSessions().some((session) => session.state.identity === human && !session.left)).toBe(false), 30_000);
    const missed = ['Missed one.', 'Missed two.', 'Missed three.'];
    for (const text of missed) await client.realtime.speak(sessionId, { text });
    // The platform observed them (the worker's final lines are the session's messages).
    const { config } = await client.realtime.retrieve(sessionId);
    await eventually(async () => {
      const said: string[] = [];
      for await (const message of client.contexts.listMessages(config.generative.context.id)) said.push(JSON.stringify(message.content));
      expect(missed.every((text) => said.some((content) => content.includes(text)))).toBe(true);
    }, 20_000);
    expect(shown(await lines(page))).toEqual([['agent', GREETING, true]]);

    await page.context().setOffline(false);
    await eventually(async () => expect((await page.evaluate(() => window.connector.snapshot())).connectionState).toBe('connected'), 60_000);
    await eventually(async () => expect(shown(await lines(page))).toEqual([['agent', GREETING, true], ...missed.map((text) => ['agent', text, true])]), 20_000);
    const transcript = await lines(page);
    expect(new Set(transcript.map((line) => line.id)).size).toBe(transcript.length);
    const statuses = (await page.evaluate(() => window.connector.history())).connectionStates;
    expect(statuses).toContain('resuming');
    // Live lines go on after the resume.
    await page.evaluate(() => window.connector.sendChat('back again'));
    await eventually(
      async () =>
        expect(shown(await lines(page)).slice(-2)).toEqual([
          ['human', 'back again', true],
          ['agent', 'You said: back again', true],
        ]),
      20_000,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\nworker log:\n${worker.log().slice(-3000)}`);
  } finally {
    await page.context().setOffline(false);
    await page.evaluate(() => window.connector.disconnect());
  }
});

test("the built-in agent's transcript is its message packets, unchanged by the lk.transcription copies it also sends: one line per utterance", async ({
  palaver,
  client,
  newPage,
}) => {
  const page = await newPage();
  try {
    const sessionId = await connect(page, client, palaver.server.url!, 'human_builtin_lines', {});
    await eventually(async () => expect((await page.evaluate(() => window.connector.snapshot())).agentState).toBe('listening'), 30_000);
    // A hidden listener of the room hears every message packet: the latest version of each line is the oracle.
    const tap = await palaver.media.transport.join({ room: sessionId, identity: 'transcript_tap', hidden: true });
    const sent = new Map<string, SDKSessionTranscription>();
    tap.on('data', (data) => {
      if (data.topic !== 'message') return;
      const line = JSON.parse(new TextDecoder().decode(data.payload)) as SDKSessionTranscription;
      sent.set(`${line.agent}:${line.id}`, line);
    });
    const before = (await lines(page)).length;
    await page.evaluate(() => window.connector.sendChat('what can you do'));
    await eventually(async () => {
      const after = (await lines(page)).slice(before);
      expect(after.filter((line) => line.agent && line.final && line.text.length > 0)).toHaveLength(1);
      expect(after.every((line) => line.final)).toBe(true);
    }, 30_000);
    await eventually(async () => {
      const after = (await lines(page)).slice(before);
      expect(after.map((line) => [line.id, line.agent, line.final, line.text, line.created_at])).toEqual(
        [...sent.values()].map((line) => [line.id, line.agent, line.final, line.text, line.created_at]),
      );
    }, 10_000);
    expect(sent.size).toBe(2);
    await tap.leave();
  } finally {
    await page.evaluate(() => window.connector.disconnect());
  }
});
