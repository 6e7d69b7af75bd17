import {
  AudioFrame,
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  type RemoteTrack,
} from '@livekit/rtc-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentMetadata, parseDataPacket, type SDKSessionTranscription } from '../../src/contract/sdk.js';
import type { AgentSessionHost } from '../../src/server/kernel/ports/agent-session-host.js';
import { createVoiceAgentHost } from '../../src/server/agent/voice-agent-host.js';
import { createLogger } from '../../src/server/kernel/logger.js';
import { LivekitAgentTransport } from '../../src/server/engines/media/livekit/livekit-agent-transport.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { AUDIBLE_RMS, RecordedEvents, fliteSpeech, offlineAnswer, rms, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';

const sttAvailable = pocketsphinxAvailable();

/**
 * The agent over `@livekit/rtc-node` (as against a LiveKit deployment), with a real LiveKit client as the
 * human, both against the embedded endpoint: what a LiveKit front end (`useVoiceAssistant`) would see.
 */
describe('voice agent over LiveKit clients (agent and human on @livekit/rtc-node)', () => {
  let test: TestServer;
  let transport: LivekitAgentTransport;
  let host: AgentSessionHost;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    const { media, speech, chat, voiceSynthesis } = test.server.services;
    transport = new LivekitAgentTransport({ url: media.clientUrl(), apiKey: media.apiKey, apiSecret: DEVELOPMENT_API_SECRET, logger: createLogger('silent') });
    host = createVoiceAgentHost({ transport, speech, chat, voices: voiceSynthesis, logger: createLogger('silent') });
  });

  afterAll(async () => {
    await host?.close();
    await transport?.close();
    await test?.close();
  });

  it('answers a typed message and a spoken one; state attributes, metadata, transcriptions and audio reach the LiveKit client', async () => {
    const identity = 'human-livekit';
    const spec = await sessionSpec(test, identity);
    const events = new RecordedEvents();
    const handle = await host.start(spec, events);

    const human = new Room();
    const attributeStates: string[] = [];
    const metadataStates: string[] = [];
    const messages: SDKSessionTranscription[] = [];
    const streams: Array<{ attributes: Record<string, string>; text: string }> = [];
    const heard: Array<{ at: number; rms: number }> = [];
    const record = () => {
      const agent = human.remoteParticipants.get('agent');
      const attribute = agent?.attributes['lk.agent.state'];
      if (attribute && attributeStates.at(-1) !== attribute) attributeStates.push(attribute);
      const state = parseAgentMetadata(agent?.metadata)?.agent_state;
      if (state && metadataStates.at(-1) !== state) metadataStates.push(state);
    };
    human.on(RoomEvent.ParticipantAttributesChanged, record);
    human.on(RoomEvent.ParticipantMetadataChanged, record);
    human.on(RoomEvent.ParticipantConnected, record);
    human.on(RoomEvent.DataReceived, (payload, _participant, _kind, topic) => {
      const packet = parseDataPacket(topic, new TextDecoder().decode(payload));
      if (packet?.topic === 'message') messages.push(packet.payload);
    });
    human.registerTextStreamHandler('lk.transcription', (reader) => {
      void reader.readAll().then((text) => streams.push({ attributes: reader.info.attributes ?? {}, text }));
    });
    human.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
      if (track.kind !== TrackKind.KIND_AUDIO) return;
      void (async () => {
        const reader = new AudioStream(track, { sampleRate: 48_000, numChannels: 1 }).getReader();
        while (true) {
          const { value, done } = await reader.read();
          if (done || !value) return;
          heard.push({ at: performance.now(), rms: rms(value.data) });
        }
      })();
    });
    const token = await test.server.services.media.createJoinToken({ room: spec.session.id, identity });
    await human.connect(test.server.services.media.clientUrl(), token, { autoSubscribe: true, dynacast: false });
    try {
      await converse();
    } finally {
      await handle.stop();
      await human.disconnect();
    }

    async function converse(): Promise<void> {
      record();
      await eventually(() => expect(attributeStates.at(-1)).toBe('listening'), 20_000);
      expect(human.remoteParticipants.get('agent')?.kind).toBe(4);

      const sentAt = performance.now();
      await human.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify({ text: 'Hello from a LiveKit client.' })), {
        reliable: true,
        topic: 'chat_input',
      });
      const finalAgent = () => messages.filter((message) => message.agent && message.final);
      await eventually(() => expect(finalAgent().map((message) => message.text)).toEqual([offlineAnswer('Hello from a LiveKit client.')]), 20_000);
      await eventually(() => expect(attributeStates.at(-1)).toBe('listening'));
      expect(attributeStates).toEqual(expect.arrayContaining(['listening', 'thinking', 'speaking']));
      expect(metadataStates.slice(-3)).toEqual(['thinking', 'speaking', 'listening']);
      expect(heard.some((frame) => frame.at > sentAt && frame.rms > AUDIBLE_RMS)).toBe(true);
      await eventually(() =>
        expect(
          streams.some((stream) => stream.attributes['lk.transcription_final'] === 'true' && stream.text === offlineAnswer('Hello from a LiveKit client.')),
        ).toBe(true),
      );

      if (sttAvailable) {
        const source = new AudioSource(16_000, 1);
        await human.localParticipant!.publishTrack(
          LocalAudioTrack.createAudioTrack('microphone', source),
          new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
        );
        const sentence = 'Please call me tomorrow morning.';
        const speech = await fliteSpeech(test.server.services.speech, sentence);
        // A microphone is live before its owner speaks: one second of silence first, then the sentence, then silence.
        const samples = new Int16Array(16_000 + speech.pcm.length + 16_000 * 1.5);
        samples.set(speech.pcm, 16_000);
        for (let offset = 0; offset < samples.length; offset += 160) {
          await source.captureFrame(new AudioFrame(samples.slice(offset, offset + 160), 16_000, 1, 160));
        }
        await eventually(() => expect(finalAgent()).toHaveLength(2), 20_000);
        const heardText = messages.filter((message) => !message.agent && message.final).at(-1)!.text;
        expect(wordErrorRate(sentence, heardText), heardText).toBeLessThan(0.3);
        expect(finalAgent()[1]!.text).toBe(offlineAnswer(heardText));
        await source.close();
      }

      await handle.stop();
      await eventually(() => expect(human.remoteParticipants.has('agent')).toBe(false));
      expect(events.messages.length).toBeGreaterThanOrEqual(2);
    }
  }, 90_000);
});
