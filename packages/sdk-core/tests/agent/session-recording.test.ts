import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fliteSpeech, HumanParticipant, offlineAnswer } from '../../src/testing/agent-harness.js';
import { audibleMs, readWav } from '../../src/testing/recorded-wav.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const config = (recording: boolean | undefined) => ({
  general: recording === undefined ? {} : { recording },
  input: {},
  output: {},
  generative: { llm: 'builtin-offline' },
});

/**
 * Issue 30 part 5b, decision 0112: a session started with `general.recording: true` has a stereo recording of both
 * sides once it ended (the human left, the agent right); one without has none, ever; deleting the session deletes it.
 * The human is a real room participant speaking Flite's speech; the agent is the built-in one of the platform (a LiveKit
 * Agents worker's session is recorded by the platform's observer: examples/livekit-agents-worker/recording.test.ts).
 */
describe.each(await storeKinds())('realtime session recordings (%s)', (kind) => {
  let test: TestServer;
  let humans = 0;

  beforeAll(async () => {
    test = await startTestServer(kind);
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  /** Starts a session as a fresh human and joins its room as that human. */
  async function startSession(recording: boolean | undefined) {
    const identity = `recorded-human-${humans++}`;
    const { token } = await test.client.usage.createToken({ human: identity });
    const client = test.clientWith({ usageToken: token });
    const startedAt = performance.now();
    const { session } = await client.realtime.start({ config: config(recording) });
    const human = await HumanParticipant.join(test.server.services.media.transport, session.id, identity);
    await human.waitForState('listening');
    return { client, session, human, startedAt };
  }

  async function rowsOf(sessionId: string) {
    return test.server.services.store.db.selectFrom('realtime_recordings').select(['session_id']).where('session_id', '=', sessionId).execute();
  }

  it('records both sides: the human on the left channel, the agent on the right, as long as the conversation', async () => {
    const { client, session, human, startedAt } = await startSession(true);
    try {
      const speech = await fliteSpeech(test.server.services.speech, 'the recording holds what I say');
      await human.say(speech, 300);
      await human.type('Hello there');
      const answer = offlineAnswer('Hello there');
      await expect.poll(() => human.finalTranscriptions(true).map((line) => line.text), { timeout: 20_000 }).toContain(answer);
      await expect.poll(() => human.states.at(-1), { timeout: 20_000 }).toBe('listening');
      await client.realtime.end(session.id);
      await expect.poll(async () => (await rowsOf(session.id)).length, { timeout: 15_000 }).toBe(1);
      const savedAt = performance.now();

      const response = await test.server.fetch(
        new Request(`http://palaver.test/v1/realtime/${session.id}/recording`, { headers: { 'x-api-key': test.server.apiKey } }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/wav');
      const wav = readWav(new Uint8Array(await response.arrayBuffer()));
      expect(wav.channels).toBe(2);
      expect(wav.sampleRate).toBe(16_000);
      const durationMs = (wav.sides[0]!.length / wav.sampleRate) * 1000;
      expect(Number(response.headers.get('x-recording-duration-ms'))).toBeCloseTo(durationMs, -1);
      // At least the human's speech, at most the agent's time in the session.
      const speechMs = speech.speechEndMs - speech.speechStartMs;
      expect(durationMs).toBeGreaterThan(speechMs);
      expect(durationMs).toBeLessThanOrEqual(savedAt - startedAt);
      // Each side holds its own speech: the human's about as long as Flite's sentence, the agent's answer on the right.
      expect(audibleMs(wav.sides[0]!, wav.sampleRate)).toBeGreaterThan(speechMs * 0.5);
      expect(audibleMs(wav.sides[1]!, wav.sampleRate)).toBeGreaterThan(1000);

      // The client's method reads the same file.
      const blob = await client.realtime.recording(session.id);
      expect(blob.type).toBe('audio/wav');
      expect(blob.size).toBe(44 + wav.sides[0]!.length * 4);
    } finally {
      await human.leave();
    }
  });

  it('records nothing for a session that did not opt in: 404 with the error shape, and no row once its agent stopped', async () => {
    for (const recording of [undefined, false]) {
      const { client, session, human } = await startSession(recording);
      try {
        await human.type('Hello there');
        await expect.poll(() => human.finalTranscriptions(true).length, { timeout: 20_000 }).toBeGreaterThan(0);
        await client.realtime.end(session.id);
        await expect.poll(() => human.agentLeft, { timeout: 15_000 }).toBe(true);
        expect(await rowsOf(session.id)).toEqual([]);
        const failure = await client.realtime.recording(session.id).catch((error: unknown) => error);
        expect(failure).toMatchObject({ status: 404, type: 'not_found', message: expect.stringContaining('has no recording') });
      } finally {
        await human.leave();
      }
    }
  });

  it('deleting the ended session deletes its recording; a live session cannot be deleted', async () => {
    const { client, session, human } = await startSession(true);
    try {
      const speech = await fliteSpeech(test.server.services.speech, 'delete me');
      await human.say(speech, 300);
      await expect(client.realtime.delete(session.id)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('end it first') });
      await client.realtime.end(session.id);
      await expect.poll(async () => (await rowsOf(session.id)).length, { timeout: 15_000 }).toBe(1);
      await client.realtime.delete(session.id);
      expect(await rowsOf(session.id)).toEqual([]);
      await expect(client.realtime.recording(session.id)).rejects.toMatchObject({ status: 404, type: 'not_found' });
      await expect(client.realtime.retrieve(session.id)).rejects.toMatchObject({ status: 404 });
      await expect(client.realtime.delete(session.id)).rejects.toMatchObject({ status: 404 });
    } finally {
      await human.leave();
    }
  });
});
