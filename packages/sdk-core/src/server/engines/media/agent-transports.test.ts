import { randomUUID } from 'node:crypto';
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
import { startTestServer, type TestServer } from '../../../../tests/support/test-server.js';
import { createLogger } from '../../kernel/logger.js';
import type { AgentTransport } from './agent-transport.js';
import { sineTone } from '../../../testing/tone-analysis.js';
import { LivekitAgentTransport } from './livekit/livekit-agent-transport.js';
import { DEVELOPMENT_API_SECRET } from './media-service.js';
import { analyseFrames, eventually, nextAudioTrack, playTone } from '../../../testing/media-test-support.js';
import { RpcCallError } from './rpc-error.js';

const HUMAN_TONE_HZ = 440;
const AGENT_TONE_HZ = 1000;
const CANDIDATES = [HUMAN_TONE_HZ, AGENT_TONE_HZ, 700, 1500, 2500];

/** Feeds a tone into an rtc-node audio source (the "human" microphone) until aborted. */
async function feedTone(source: AudioSource, frequency: number, signal: AbortSignal): Promise<void> {
  const tone = sineTone(frequency, 48_000, 1000, 0.4);
  for (let index = 0; !signal.aborted; index = (index + 1) % 100) {
    await source.captureFrame(new AudioFrame(tone.slice(index * 480, index * 480 + 480), 48_000, 1, 480));
  }
}

/**
 * Both agent transports against the embedded endpoint, with `@livekit/rtc-node` as the human client:
 * `embedded` (in process) and `livekit` (rtc-node joins the embedded endpoint like a LiveKit server).
 */
describe.each(['embedded', 'livekit'] as const)('%s agent transport, human on @livekit/rtc-node', (kind) => {
  let test: TestServer;
  let transport: AgentTransport;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    const media = test.server.services.media;
    transport =
      kind === 'embedded'
        ? media.transport
        : new LivekitAgentTransport({ url: media.clientUrl(), apiKey: media.apiKey, apiSecret: DEVELOPMENT_API_SECRET, logger: createLogger('silent') });
    expect(transport.kind).toBe(kind);
  });

  afterAll(async () => {
    await transport?.close();
    await test?.close();
  });

  async function humanJoins(room: string, identity: string): Promise<Room> {
    const human = new Room();
    const token = await test.server.services.media.createJoinToken({ room, identity, name: identity });
    await human.connect(test.server.services.media.clientUrl(), token, { autoSubscribe: true, dynacast: false });
    return human;
  }

  it('joins as an agent; participants, metadata, attributes and room metadata flow both ways', async () => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await transport.ensureRoom({ room, metadata: JSON.stringify({ session: room }) });
    const agent = await transport.join({ room, metadata: JSON.stringify({ agent_state: 'warmup' }), attributes: { 'lk.agent.state': 'initializing' } });
    expect(agent.identity).toBe('agent');
    expect(agent.sid).toMatch(/^PA_/);
    const joined: string[] = [];
    agent.on('participantJoined', (participant) => joined.push(participant.identity));
    const human = await humanJoins(room, 'human_1');
    await eventually(() => expect(joined).toEqual(['human_1']));
    expect(human.metadata).toBe(JSON.stringify({ session: room }));
    const seenAgent = human.remoteParticipants.get('agent');
    expect(seenAgent?.kind).toBe(4);
    expect(seenAgent?.attributes).toEqual({ 'lk.agent.state': 'initializing' });

    await agent.setAttributes({ 'lk.agent.state': 'listening' });
    await agent.setMetadata(JSON.stringify({ agent_state: 'listening' }));
    await agent.setRoomMetadata(JSON.stringify({ session: room, updated: true }));
    await eventually(() => {
      expect(human.remoteParticipants.get('agent')?.attributes).toEqual({ 'lk.agent.state': 'listening' });
      expect(human.remoteParticipants.get('agent')?.metadata).toBe(JSON.stringify({ agent_state: 'listening' }));
      expect(human.metadata).toContain('updated');
    });
    const updated: Array<Record<string, string>> = [];
    agent.on('participantUpdated', (participant) => updated.push(participant.attributes));
    await human.localParticipant!.setAttributes({ mood: 'curious' });
    await eventually(() => expect(updated.at(-1)).toEqual({ mood: 'curious' }));

    const left: string[] = [];
    agent.on('participantLeft', (participant) => left.push(participant.identity));
    await human.disconnect();
    await eventually(() => expect(left).toEqual(['human_1']));
    await agent.leave();
  });

  it('exchanges data packets, text streams and RPC', async () => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await transport.ensureRoom({ room });
    const agent = await transport.join({ room });
    const human = await humanJoins(room, 'human_2');
    const agentGot: string[] = [];
    agent.on('data', (data) => agentGot.push(`${data.topic}:${data.from}:${new TextDecoder().decode(data.payload)}`));
    const agentTexts: string[] = [];
    agent.onTextStream('lk.chat', (stream) => void stream.readAll().then((text) => agentTexts.push(`${stream.from}:${text}`)));
    agent.registerRpcMethod('upper', async (invocation) => invocation.payload.toUpperCase());
    agent.registerRpcMethod('fail', async () => {
      throw new RpcCallError(1500, 'tool failed');
    });
    const humanGot: string[] = [];
    human.on(RoomEvent.DataReceived, (payload, participant, _kind, topic) =>
      humanGot.push(`${topic}:${participant?.identity}:${new TextDecoder().decode(payload)}`),
    );
    const humanTexts: string[] = [];
    human.registerTextStreamHandler(
      'lk.transcription',
      (reader, participant) => void reader.readAll().then((text) => humanTexts.push(`${participant.identity}:${text}`)),
    );
    human.localParticipant!.registerRpcMethod('echo', async (data) => `echo:${data.payload}`);
    await eventually(() => expect(agent.participants().map((participant) => participant.identity)).toEqual(['human_2']));

    await agent.sendData(JSON.stringify({ text: 'hi' }), { topic: 'message' });
    const writer = await agent.streamText({ topic: 'lk.transcription', attributes: { 'lk.segment_id': 'seg_1' } });
    await writer.write('hello ');
    await writer.write('world');
    await writer.close();
    await human.localParticipant!.publishData(new TextEncoder().encode('{"text":"typed"}'), { reliable: true, topic: 'chat_input' });
    await human.localParticipant!.sendText('a typed message', { topic: 'lk.chat' });
    await eventually(() => {
      expect(humanGot).toEqual(['message:agent:{"text":"hi"}']);
      expect(humanTexts).toEqual(['agent:hello world']);
      expect(agentGot).toEqual(['chat_input:human_2:{"text":"typed"}']);
      expect(agentTexts).toEqual(['human_2:a typed message']);
    });

    await expect(human.localParticipant!.performRpc({ destinationIdentity: 'agent', method: 'upper', payload: 'abc' })).resolves.toBe('ABC');
    await expect(human.localParticipant!.performRpc({ destinationIdentity: 'agent', method: 'fail', payload: '' })).rejects.toMatchObject({ code: 1500 });
    await expect(agent.performRpc({ destinationIdentity: 'human_2', method: 'echo', payload: 'x' })).resolves.toBe('echo:x');
    await expect(agent.performRpc({ destinationIdentity: 'human_2', method: 'nope', payload: '' })).rejects.toMatchObject({ code: 1400 });
    await human.disconnect();
    await agent.leave();
  });

  it("receives byte streams (livekit-client's pre-connect audio buffer topic) with their attributes, in order, only on topics it listens to", async () => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await transport.ensureRoom({ room });
    const agent = await transport.join({ room });
    const human = await humanJoins(room, 'human_3');
    const received: Array<{ from: string; mimeType: string; attributes: Record<string, string>; bytes: number[] }> = [];
    agent.onByteStream('lk.agent.pre-connect-audio-buffer', (stream) => {
      void (async () => {
        const bytes: number[] = [];
        for await (const chunk of stream) bytes.push(...chunk);
        received.push({ from: stream.from, mimeType: stream.mimeType, attributes: stream.attributes, bytes });
      })();
    });
    await eventually(() => expect(agent.participants().map((participant) => participant.identity)).toEqual(['human_3']));
    const unwanted = await human.localParticipant!.streamBytes({ topic: 'other', mimeType: 'application/octet-stream' });
    await unwanted.write(new Uint8Array([9, 9]));
    await unwanted.close();
    const writer = await human.localParticipant!.streamBytes({
      name: 'preconnect-buffer',
      topic: 'lk.agent.pre-connect-audio-buffer',
      mimeType: 'audio/webm;codecs=opus',
      attributes: { trackId: 'TR_mic', sampleRate: '48000', channels: '1' },
    });
    await writer.write(new Uint8Array([1, 2, 3]));
    await writer.write(new Uint8Array([4, 5]));
    await writer.close();
    await eventually(() =>
      expect(received).toEqual([
        {
          from: 'human_3',
          mimeType: 'audio/webm;codecs=opus',
          attributes: { trackId: 'TR_mic', sampleRate: '48000', channels: '1' },
          bytes: [1, 2, 3, 4, 5],
        },
      ]),
    );
    await human.disconnect();
    await agent.leave();
  });

  it('receives the human microphone as PCM and publishes PCM the human hears (Opus both ways)', async () => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await transport.ensureRoom({ room });
    const agent = await transport.join({ room });
    const output = await agent.publishAudio({ sampleRate: 48_000 });
    const stop = new AbortController();
    const playing = playTone(output, AGENT_TONE_HZ, 30_000, stop.signal);

    const human = await humanJoins(room, 'human_3');
    const humanTrack = new Promise<RemoteTrack>((resolve) =>
      human.on(RoomEvent.TrackSubscribed, (track) => {
        if (track.kind === TrackKind.KIND_AUDIO) resolve(track);
      }),
    );
    const source = new AudioSource(48_000, 1);
    await human.localParticipant!.publishTrack(
      LocalAudioTrack.createAudioTrack('mic', source),
      new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
    );
    const feeding = feedTone(source, HUMAN_TONE_HZ, stop.signal);

    const fromHuman = await nextAudioTrack(agent, 'human_3', 30_000);
    const decoded = await analyseFrames(fromHuman.frames(), CANDIDATES);
    expect(decoded.frequency).toBe(HUMAN_TONE_HZ);
    expect(decoded.dominance).toBeGreaterThan(10);

    const heardTrack = await humanTrack;
    const stream = new AudioStream(heardTrack, { sampleRate: 48_000, numChannels: 1 });
    const heard = await analyseFrames(
      (async function* () {
        const reader = stream.getReader();
        while (true) {
          const { value, done } = await reader.read();
          if (done || !value) return;
          yield { samples: value.data, sampleRate: value.sampleRate, channels: value.channels };
        }
      })(),
      CANDIDATES,
    );
    expect(heard.frequency).toBe(AGENT_TONE_HZ);
    expect(heard.dominance).toBeGreaterThan(10);

    expect(output.flush()).toBeGreaterThanOrEqual(0);
    stop.abort();
    await Promise.all([playing, feeding]);
    await source.close();
    await human.disconnect();
    await agent.leave();
  }, 60_000);

  it('keeps the session when the server drops the human signalling socket (resume)', async () => {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await transport.ensureRoom({ room });
    const agent = await transport.join({ room });
    const human = await humanJoins(room, 'human_4');
    const reconnected = new Promise<void>((resolve) => human.once(RoomEvent.Reconnected, () => resolve()));
    const session = test.server.services.media.endpoint!.clientSessions().find((candidate) => candidate.state.identity === 'human_4')!;
    const sid = session.state.sid;
    session.dropSignal();
    await reconnected;
    expect(test.server.services.media.endpoint!.clientSessions().find((candidate) => candidate.state.identity === 'human_4')?.state.sid).toBe(sid);
    const got: string[] = [];
    agent.on('data', (data) => got.push(new TextDecoder().decode(data.payload)));
    await human.localParticipant!.publishData(new TextEncoder().encode('after resume'), { reliable: true, topic: 't' });
    await eventually(() => expect(got).toEqual(['after resume']));
    await human.disconnect();
    await agent.leave();
  }, 30_000);
});
