import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_STREAM_TOPIC, LEGACY_CHAT_TOPIC } from '../../src/contract/wire.js';
import type { AgentSessionHost } from '../../src/server/kernel/ports/agent-session-host.js';
import { agentHostFor, HumanParticipant, RecordedEvents, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * LiveKit's older chat (`lk-chat-topic` packets `{id, timestamp, message}`), as LiveKit's components sent chat before
 * text streams: the agent takes it as a typed turn and answers there too; the copy newer components send beside an
 * `lk.chat` stream (`ignoreLegacy: true`) is not a second message.
 */
describe("voice agent: LiveKit's older chat packets", () => {
  let test: TestServer;
  let host: AgentSessionHost;
  let humans = 0;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    host = agentHostFor(test);
  });

  afterAll(async () => {
    await host?.close();
    await test?.close();
  });

  async function setUp() {
    const identity = `human-legacy-chat-${humans++}`;
    const spec = await sessionSpec(test, identity, { output: { speech_synthesis_enabled: false } });
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);
    await human.waitForState('listening');
    return { human, handle, events };
  }

  const legacyPacket = (message: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ id: `msg-${Math.random()}`, timestamp: Date.now(), message, ...extra });

  it('a legacy chat message is a typed turn; the answer comes back on the legacy topic as well as the transcription', async () => {
    const { human, handle, events } = await setUp();
    await human.connection.sendData(legacyPacket('What is the weather like today?'), { topic: LEGACY_CHAT_TOPIC, reliable: true });
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(1), 20_000);
    expect(human.finalTranscriptions(false).map((line) => line.text)).toEqual(['What is the weather like today?']);
    const answer = human.finalTranscriptions(true)[0]!.text;
    await eventually(() => expect(human.legacyChat.map((packet) => packet.message)).toEqual([answer]));
    expect(human.legacyChat[0]).toMatchObject({ id: expect.any(String), timestamp: expect.any(Number) });
    expect(events.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    await handle.stop();
    await human.leave();
  }, 60_000);

  it('the copy beside an lk.chat stream (ignoreLegacy) is not answered twice; a malformed packet is ignored', async () => {
    const { human, handle, events } = await setUp();
    await human.connection.sendData('{"message": 42}', { topic: LEGACY_CHAT_TOPIC, reliable: true });
    await human.connection.sendData(legacyPacket('Tell me a joke.', { ignoreLegacy: true }), { topic: LEGACY_CHAT_TOPIC, reliable: true });
    await human.connection.sendText('Tell me a joke.', { topic: CHAT_STREAM_TOPIC });
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(1), 20_000);
    // A later message marks the end: everything sent before it has been read by then.
    await human.type('Thanks.');
    await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(2), 20_000);
    expect(human.finalTranscriptions(false).map((line) => line.text)).toEqual(['Tell me a joke.', 'Thanks.']);
    // Typed on lk.chat: the answer is not sent on the legacy topic.
    expect(human.legacyChat).toEqual([]);
    expect(events.messages.filter((message) => message.role === 'user')).toHaveLength(2);
    await handle.stop();
    await human.leave();
  }, 60_000);
});
