import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSessionHost } from '../../src/server/kernel/ports/agent-session-host.js';
import { startFakeDeepgramLive, type FakeDeepgramLive } from '../../src/testing/streaming-stt/fake-deepgram-live.js';
import { startFakeOpenAiRealtimeTranscription } from '../../src/testing/streaming-stt/fake-openai-realtime-transcription.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { agentHostFor, HumanParticipant, RecordedEvents, fliteSpeech, offlineAnswer, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';

const API_KEY = 'streaming-test-key';
const FIRST = 'What time does the train leave?';
const SECOND = 'Please call me tomorrow morning.';

interface Vendor {
  provider: 'deepgram' | 'openai-realtime';
  start(options: { apiKey: string; script: string[] }): Promise<{ url: string; requests: readonly unknown[]; dropConnections(): void; close(): Promise<void> }>;
}

const vendors: Vendor[] = [
  { provider: 'deepgram', start: (options) => startFakeDeepgramLive(options) },
  { provider: 'openai-realtime', start: (options) => startFakeOpenAiRealtimeTranscription({ ...options, deltas: 'while-speaking' }) },
];

/** The platform with the offline STT turned off: whatever the agent hears, the streaming vendor transcribed. */
function streamingServer(provider: Vendor['provider'], url: string, apiKey = API_KEY): Promise<TestServer> {
  return startTestServer('sqlite', {
    env: {
      PALAVER_SPEECH_STT_PROVIDER: 'none',
      PALAVER_SPEECH_STREAMING_STT_PROVIDER: provider,
      PALAVER_SPEECH_STREAMING_STT_URL: url,
      PALAVER_SPEECH_STREAMING_STT_API_KEY: apiKey,
    },
  });
}

async function joinSession(test: TestServer, host: AgentSessionHost, identity: string) {
  const spec = await sessionSpec(test, identity);
  const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
  const handle = await host.start(spec, new RecordedEvents());
  await human.waitForState('listening');
  return { human, handle };
}

describe.each(vendors)('voice agent with hosted streaming STT ($provider, local fake)', (vendor) => {
  let fake: Awaited<ReturnType<Vendor['start']>>;
  let test: TestServer;
  let host: AgentSessionHost;

  beforeAll(async () => {
    fake = await vendor.start({ apiKey: API_KEY, script: [FIRST, SECOND] });
    test = await streamingServer(vendor.provider, fake.url);
    await test.server.listen(0, '127.0.0.1');
    host = agentHostFor(test);
  });

  afterAll(async () => {
    await host?.close();
    await test?.close();
    await fake?.close();
  });

  it('transcribes the human over one vendor stream for the session, shows interims and answers each utterance', async () => {
    const { human, handle } = await joinSession(test, host, `streaming-${vendor.provider}`);
    const speech = test.server.services.speech;
    await human.say(await fliteSpeech(speech, FIRST));
    await eventually(() => expect(human.finalTranscriptions(false).map((message) => message.text)).toEqual([FIRST]), 20_000);
    await eventually(() => expect(human.finalTranscriptions(true).map((message) => message.text)).toEqual([offlineAnswer(FIRST)]), 20_000);
    // The transcript grew before it was final.
    const mine = human.messages.filter((message) => !message.agent);
    expect(mine.some((message) => !message.final && message.text !== '' && FIRST.startsWith(message.text.replace(/[?.]$/, '')))).toBe(true);
    await human.waitForState('listening');

    // A dropped connection is reconnected without a word to the human; the next utterance is transcribed on it.
    fake.dropConnections();
    await human.say(await fliteSpeech(speech, SECOND, 'rms'));
    await eventually(() => expect(human.finalTranscriptions(false).map((message) => message.text)).toEqual([FIRST, SECOND]), 20_000);
    await eventually(() => expect(human.finalTranscriptions(true).at(-1)?.text).toBe(offlineAnswer(SECOND)), 20_000);
    expect(human.errors).toEqual([]);
    // One stream for the track (not one per utterance): a second connection only for the reconnect.
    expect(fake.requests).toHaveLength(2);
    await handle.stop();
    await human.leave();
  }, 60_000);
});

describe('voice agent with hosted streaming STT: a vendor that refuses the key', () => {
  let fake: FakeDeepgramLive;
  let test: TestServer;
  let host: AgentSessionHost;

  beforeAll(async () => {
    fake = await startFakeDeepgramLive({ apiKey: API_KEY, script: [FIRST] });
    test = await streamingServer('deepgram', fake.url, 'not-the-key');
    await test.server.listen(0, '127.0.0.1');
    host = agentHostFor(test);
  });

  afterAll(async () => {
    await host?.close();
    await test?.close();
    await fake?.close();
  });

  it('tells the human speech recognition failed, once, and typed turns still work', async () => {
    const { human, handle } = await joinSession(test, host, 'streaming-refused');
    await eventually(() => expect(human.errors).toEqual([expect.stringMatching(/^Speech recognition failed: .*API key/)]), 20_000);
    // Refused at once, not tried again.
    expect(fake.requests).toHaveLength(1);
    await human.say(await fliteSpeech(test.server.services.speech, FIRST));
    await human.type('Can you read this?');
    await eventually(() => expect(human.finalTranscriptions(true).map((message) => message.text)).toContain(offlineAnswer('Can you read this?')), 20_000);
    expect(human.errors).toHaveLength(1);
    await handle.stop();
    await human.leave();
  }, 60_000);
});
