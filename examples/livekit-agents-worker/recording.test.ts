import { AudioFrame, AudioSource, LocalAudioTrack, Room, TrackPublishOptions, TrackSource } from '@livekit/rtc-node';
import { createClient, type PalaverClient } from '@palaver/sdk-core';
import type { PalaverServer } from '@palaver/sdk-core/server';
import { audibleMs, createTestPlatform, dropSchema, fliteSpeech, loudWindowsMs, postgresReachable, readWav, uniqueSchema } from '@palaver/sdk-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAME } from './agent.js';
import { eventually, startWorker, type WorkerProcess } from './worker-process.js';

const API_KEY = 'worker-test-key';
const API_SECRET = 'worker-test-secret-0123456789-0123456789';
const postgresUrl = process.env.PALAVER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** SQLite always; PostgreSQL when it answers (required in CI), as the platform's store-backed suites run. */
async function storeKinds(): Promise<Array<'sqlite' | 'postgres'>> {
  if (await postgresReachable(postgresUrl)) return ['sqlite', 'postgres'];
  if (process.env.CI === 'true') throw new Error(`Required component missing in CI: PostgreSQL (cannot connect to ${postgresUrl})`);
  console.warn(`[skip] PostgreSQL unavailable: cannot connect to ${postgresUrl}`);
  return ['sqlite'];
}

/** A LiveKit client in the room (the session's human) with a microphone, and the transcriptions it reads. */
async function joinWithMicrophone(url: string, token: string, sampleRate: number) {
  const room = new Room();
  const heard: Array<{ from: string; text: string }> = [];
  room.registerTextStreamHandler('lk.transcription', (reader, from) => {
    void reader.readAll().then((text) => heard.push({ from: from.identity, text }));
  });
  await room.connect(url, token, { autoSubscribe: true, dynacast: false });
  const microphone = new AudioSource(sampleRate, 1, 1000);
  await room.localParticipant!.publishTrack(
    LocalAudioTrack.createAudioTrack('microphone', microphone),
    new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
  );
  /** Speaks `pcm` in 10 ms frames, then `silenceMs` of silence, and resolves once it was all sent. */
  const say = async (pcm: Int16Array, silenceMs: number) => {
    const all = new Int16Array(pcm.length + Math.round((sampleRate * silenceMs) / 1000));
    all.set(pcm);
    const frame = sampleRate / 100;
    for (let start = 0; start + frame <= all.length; start += frame)
      await microphone.captureFrame(new AudioFrame(all.slice(start, start + frame), sampleRate, 1, frame));
    await microphone.waitForPlayout();
  };
  return { room, heard, say };
}

/**
 * Issue 30 part 5, decision 0122: the session of an unmodified `@livekit/agents` worker (agent.ts) started with
 * `general.recording: true` is recorded by the platform's hidden observer, which is subscribed to the human's and the
 * agent's tracks (decoded from the room's Opus RTP): the human's Flite speech on the left channel, the agent's replay of
 * it on the right, later. Without the option nothing is kept; deleting the ended session deletes the recording.
 */
describe.each(await storeKinds())("a LiveKit Agents worker's session recording (%s)", (kind) => {
  let server: PalaverServer;
  let client: PalaverClient;
  let url: string;
  let worker: WorkerProcess;
  const schema = kind === 'postgres' ? uniqueSchema() : undefined;

  beforeAll(async () => {
    ({ server } = await createTestPlatform({
      env: { LIVEKIT_API_KEY: API_KEY, LIVEKIT_API_SECRET: API_SECRET },
      ...(schema ? { config: { databaseUrl: postgresUrl }, databaseSchema: schema } : {}),
    }));
    url = await server.listen(0, '127.0.0.1');
    client = createClient({ baseUrl: url, apiKey: server.apiKey, maxRetries: 0 });
    const workers = server.services.media.endpoint!.agentWorkers;
    worker = await startWorker(url.replace(/^http/, 'ws'), { key: API_KEY, secret: API_SECRET }, () => workers.hasWorker(AGENT_NAME));
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    if (schema) await dropSchema(postgresUrl, schema);
  });

  const rowsOf = (platform: PalaverServer, sessionId: string) =>
    platform.services.store.db.selectFrom('realtime_recordings').select(['session_id']).where('session_id', '=', sessionId).execute();

  /** A worker session (recorded or not) of `platform` with its human in the room, the agent listening. */
  async function startSession(recording: boolean | undefined, platform = { server, client }) {
    const general = { agent: { type: 'livekit_worker' as const, agent_name: AGENT_NAME }, ...(recording === undefined ? {} : { recording }) };
    const { session, connection_details } = await platform.client.realtime.start({ config: { general } });
    const speech = await fliteSpeech(platform.server.services.speech, 'the platform records what I say to the worker');
    const human = await joinWithMicrophone(connection_details.url, connection_details.token, speech.sampleRate);
    const agent = await eventually(
      () => [...human.room.remoteParticipants.values()].find((participant) => participant.identity.startsWith('agent-')),
      'the agent',
    );
    await eventually(() => agent.attributes['lk.agent.state'] === 'listening', 'the agent to listen');
    return { session, speech, human, agent };
  }

  /**
   * The human speaks, the agent plays it back, the session ends; then `platform`'s recording of it holds the speech on
   * each side, the human's before the agent's. Resolves with the WAV's length in samples.
   */
  async function recordConversation(platform: { server: PalaverServer; client: PalaverClient; url: string }): Promise<{ sessionId: string; frames: number }> {
    const { session, speech, human, agent } = await startSession(true, platform);
    try {
      await human.say(speech.pcm, 300);
      await human.room.localParticipant!.sendText('replay', { topic: 'lk.chat' });
      const played = await eventually(
        () => human.heard.find((line) => line.from === agent.identity && line.text.startsWith('I played back')),
        `the replay (heard: ${JSON.stringify(human.heard)})`,
      );
      const speechMs = speech.speechEndMs - speech.speechStartMs;
      expect(Number(/(\d+) ms/.exec(played.text)![1])).toBeGreaterThan(speechMs);
      expect((await platform.client.realtime.end(session.id)).state).toBe('ended');
      await eventually(async () => (await rowsOf(platform.server, session.id)).length === 1, 'the recording to be stored');

      const response = await fetch(`${platform.url}/v1/realtime/${session.id}/recording`, { headers: { 'x-api-key': platform.server.apiKey } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/wav');
      const wav = readWav(new Uint8Array(await response.arrayBuffer()));
      expect({ channels: wav.channels, sampleRate: wav.sampleRate }).toEqual({ channels: 2, sampleRate: 16_000 });
      const [left, right] = wav.sides as [Int16Array, Int16Array];
      // Each side holds the speech: the human's as spoken, the agent's as played back (both through Opus).
      expect(audibleMs(left, wav.sampleRate)).toBeGreaterThan(speechMs * 0.5);
      expect(audibleMs(right, wav.sampleRate)).toBeGreaterThan(speechMs * 0.5);
      // The human spoke first and the agent played it back after: the left's speech ends before the right's begins.
      expect(loudWindowsMs(left, wav.sampleRate).at(-1)!).toBeLessThan(loudWindowsMs(right, wav.sampleRate)[0]!);
      return { sessionId: session.id, frames: left.length };
    } finally {
      await human.room.disconnect();
    }
  }

  it('records both sides: the human on the left channel, the worker agent on the right, on the session clock', async () => {
    const { sessionId, frames } = await recordConversation({ server, client, url });
    expect((await client.realtime.recording(sessionId)).size).toBe(44 + frames * 4);
    await client.realtime.delete(sessionId);
    expect(await rowsOf(server, sessionId)).toEqual([]);
    await expect(client.realtime.recording(sessionId)).rejects.toMatchObject({ status: 404 });
  });

  // The observer joins a LiveKit deployment through rtc-node as it joins the embedded endpoint in process: one design.
  it.runIf(kind === 'sqlite')('records the same way on a Palaver that uses a LiveKit deployment (the observer subscribes over the network)', async () => {
    // This Palaver's media is "a LiveKit deployment": the first server's endpoint, where the worker is registered.
    const scaled = await createTestPlatform({ env: { LIVEKIT_URL: url.replace(/^http/, 'ws'), LIVEKIT_API_KEY: API_KEY, LIVEKIT_API_SECRET: API_SECRET } });
    try {
      const scaledUrl = await scaled.server.listen(0, '127.0.0.1');
      expect(scaled.server.services.media.transport.kind).toBe('livekit');
      const scaledClient = createClient({ baseUrl: scaledUrl, apiKey: scaled.server.apiKey, maxRetries: 0 });
      await recordConversation({ server: scaled.server, client: scaledClient, url: scaledUrl });
    } finally {
      await scaled.close();
    }
  });

  it('records nothing for a worker session that did not opt in', async () => {
    const { session, speech, human } = await startSession(undefined);
    try {
      await human.say(speech.pcm, 300);
      expect((await client.realtime.end(session.id)).state).toBe('ended');
      await eventually(async () => (await client.realtime.retrieve(session.id)).state === 'ended', 'the session to end');
      expect(await rowsOf(server, session.id)).toEqual([]);
      await expect(client.realtime.recording(session.id)).rejects.toMatchObject({ status: 404, type: 'not_found' });
    } finally {
      await human.room.disconnect();
    }
  });
});
