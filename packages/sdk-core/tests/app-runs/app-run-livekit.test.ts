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
import { RUNTIME_API_TOPIC, RuntimeApiEnvelope } from '../../src/contract/graph/runtime-api.js';
import { AppRunHost } from '../../src/server/graph/app-run-host.js';
import { GraphChecker } from '../../src/server/domain/apps/graph-checker.js';
import { createLogger } from '../../src/server/kernel/logger.js';
import { LivekitAgentTransport } from '../../src/server/engines/media/livekit/livekit-agent-transport.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { AUDIBLE_RMS, fliteSpeech, rms } from '../../src/testing/agent-harness.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { sineTone } from '../../src/testing/tone-analysis.js';

/**
 * Sends the human's audio (`send`) again until `answered()`, for at most `deadlineMs` from the first send: the runtime
 * subscribes to the human's track while the first frames go out, which on a busy machine can take longer than the
 * audio itself (frames sent before that reach no one). `waitMs`: how long each send waits for the answer.
 */
async function sendUntilAnswered(send: () => Promise<void>, answered: () => boolean, deadlineMs: number, waitMs: number): Promise<void> {
  const started = performance.now();
  while (!answered() && performance.now() - started < deadlineMs) {
    await send();
    const left = deadlineMs - (performance.now() - started);
    if (left > 0) await eventually(() => expect(answered()).toBe(true), Math.min(waitMs, left)).catch(() => undefined);
  }
  expect(answered()).toBe(true);
}

/**
 * An app run whose runtime reaches its room over `@livekit/rtc-node` (as against a LiveKit deployment), with
 * a LiveKit client as the human, both against the embedded endpoint.
 */
describe('app runs over LiveKit clients (runtime and human on @livekit/rtc-node)', () => {
  let test: TestServer;
  let transport: LivekitAgentTransport;
  let host: AppRunHost;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    const { media, speech, chat, voiceSynthesis } = test.server.services;
    transport = new LivekitAgentTransport({ url: media.clientUrl(), apiKey: media.apiKey, apiSecret: DEVELOPMENT_API_SECRET, logger: createLogger('silent') });
    host = new AppRunHost({ transport, engines: { chat, speech, voices: voiceSynthesis }, logger: createLogger('silent') });
  });

  afterAll(async () => {
    await host?.close();
    await transport?.close();
    await test?.close();
  });

  it('Echo: the human publishes `publish:audio`, hears it back, and talks to the runtime API', async () => {
    const { services } = test.server;
    const template = await test.client.appTemplates.retrieve('app_template_echo');
    const principal = { project: test.server.project, kind: 'key' as const, human: null, credentialId: 'key_test' };
    const graph = await new GraphChecker(services.subgraphs).check(principal, 'graph', template.graph);
    const runId = 'run_livekit_echo';
    await transport.ensureRoom({ room: runId });
    await host.start({ runId, principal, graph, publisherMetadata: undefined }, { stopped: () => undefined });

    const human = new Room();
    const heard: Array<{ at: number; rms: number }> = [];
    const messages: RuntimeApiEnvelope[] = [];
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
    human.on(RoomEvent.DataReceived, (payload, _participant, _kind, topic) => {
      if (topic !== RUNTIME_API_TOPIC) return;
      const parsed = RuntimeApiEnvelope.safeParse(JSON.parse(new TextDecoder().decode(payload)));
      if (parsed.success) messages.push(parsed.data);
    });
    const token = await services.media.createJoinToken({ room: runId, identity: 'human-livekit-run' });
    await human.connect(services.media.clientUrl(), token, { autoSubscribe: true, dynacast: false });
    try {
      await eventually(() => expect(human.remoteParticipants.has('agent')).toBe(true), 10_000);
      const request = { type: 'request', req_id: 'r1', payload: { type: 'get_value', node_id: 'publish', pad_id: 'audio_enabled' } };
      await human.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify(request)), { reliable: true, topic: RUNTIME_API_TOPIC });
      await eventually(
        () =>
          expect(messages).toEqual(
            expect.arrayContaining([
              { type: 'ack', req_id: 'r1' },
              expect.objectContaining({ type: 'complete', req_id: 'r1', payload: { type: 'get_value', value: { type: 'boolean', value: false } } }),
            ]),
          ),
        10_000,
      );

      const source = new AudioSource(16_000, 1);
      await human.localParticipant!.publishTrack(
        LocalAudioTrack.createAudioTrack('publish:audio', source),
        new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
      );
      const tone = sineTone(440, 16_000, 1500, 0.5);
      const sentAt = performance.now();
      const sendTone = async () => {
        for (let offset = 0; offset < tone.length; offset += 160) await source.captureFrame(new AudioFrame(tone.slice(offset, offset + 160), 16_000, 1, 160));
      };
      await sendUntilAnswered(sendTone, () => heard.some((frame) => frame.at > sentAt && frame.rms > AUDIBLE_RMS), 11_500, 1_000);
      await source.close();
    } finally {
      await host.get(runId)?.stop('ended');
      await human.disconnect();
    }
  }, 60_000);

  it.skipIf(!pocketsphinxAvailable())(
    'Simple Voice AI: a LiveKit client speaking into publish:audio hears the answer',
    async () => {
      const { services } = test.server;
      const template = await test.client.appTemplates.retrieve('app_template_simple_voice_ai');
      const principal = { project: test.server.project, kind: 'key' as const, human: null, credentialId: 'key_test' };
      const graph = await new GraphChecker(services.subgraphs).check(principal, 'graph', template.graph);
      const runId = 'run_livekit_voice';
      await transport.ensureRoom({ room: runId });
      await host.start({ runId, principal, graph, publisherMetadata: undefined }, { stopped: () => undefined });
      const human = new Room();
      const heard: Array<{ at: number; rms: number }> = [];
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
      const token = await services.media.createJoinToken({ room: runId, identity: 'human-livekit-voice' });
      await human.connect(services.media.clientUrl(), token, { autoSubscribe: true, dynacast: false });
      try {
        await eventually(() => expect(human.remoteParticipants.has('agent')).toBe(true), 10_000);
        const source = new AudioSource(16_000, 1);
        await human.localParticipant!.publishTrack(
          LocalAudioTrack.createAudioTrack('publish:audio', source),
          new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
        );
        const speech = await fliteSpeech(services.speech, 'What is the weather like today?');
        const samples = new Int16Array(16_000 + speech.pcm.length + 16_000 * 1.5);
        samples.set(speech.pcm, 16_000);
        let speechEndedAt = 0;
        const speechEndSample = 16_000 + Math.round((speech.speechEndMs / 1000) * 16_000);
        const speak = async () => {
          for (let offset = 0; offset < samples.length; offset += 160) {
            await source.captureFrame(new AudioFrame(samples.slice(offset, offset + 160), 16_000, 1, 160));
            if (speechEndedAt === 0 && offset >= speechEndSample) speechEndedAt = performance.now();
          }
        };
        // As before: the audio once (~4 s) and 20 s for the answer, now with the question asked again while none came.
        const sendMs = (samples.length / 16_000) * 1000;
        await sendUntilAnswered(
          speak,
          () => speechEndedAt > 0 && heard.some((frame) => frame.at > speechEndedAt && frame.rms > AUDIBLE_RMS),
          sendMs + 20_000,
          8_000,
        );
        await source.close();
      } finally {
        await host.get(runId)?.stop('ended');
        await human.disconnect();
      }
    },
    60_000,
  );
});
