import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIBLE_RMS, audibleMs, fliteSpeech, HumanParticipant, loudWindowsMs, readWav } from '../../src/testing.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 30 part 5, decision 0122: an app run created with `recording: true` has a stereo recording of both sides once
 * it ended (its human on the left, the graph on the right), made by a hidden participant of its room; one without
 * has none; deleting the ended run deletes it. The human speaks Flite's speech into the room, then the typed-chat
 * example's graph answers aloud (TTS).
 */
describe.each(await storeKinds())('app run recordings (%s)', (kind) => {
  let test: TestServer;
  let humans = 0;

  beforeAll(async () => {
    test = await startTestServer(kind, { config: { realtime: { leaseSeconds: 15, appRunEmptySeconds: 0.5 } } });
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  /** Starts the typed-chat example as a fresh human (optionally recorded) and joins its room as that human. */
  async function startRun(recording: boolean | undefined) {
    const identity = `run-human-${humans++}`;
    const { token } = await test.client.usage.createToken({ human: identity });
    const client = test.clientWith({ usageToken: token });
    const typed = (await client.apps.examples()).find((example) => example.id === 'app_example_typed_chat')!;
    const { app_run } = await client.appRuns.create({ app: typed.id, ...(recording === undefined ? {} : { recording }) });
    const human = await HumanParticipant.join(test.server.services.media.transport, app_run.id, identity);
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    return { client, run: app_run, human };
  }

  async function rowsOf(runId: string) {
    return test.server.services.store.db.selectFrom('realtime_recordings').select(['session_id']).where('session_id', '=', runId).execute();
  }

  /** Leaves and waits for the run to end (everyone gone for 0.5 s): its recording, if any, is stored by then. */
  async function endRun(client: TestServer['client'], runId: string, human: HumanParticipant) {
    await human.leave();
    await eventually(async () => expect(await client.appRuns.debug({ run_id: runId }).catch((error: unknown) => error)).toMatchObject({ status: 404 }), 20_000);
  }

  it('records both sides: the human on the left channel, the graph on the right, each at its time', async () => {
    const { client, run, human } = await startRun(true);
    const speech = await fliteSpeech(test.server.services.speech, 'the run keeps what I say');
    await human.say(speech, 300);
    const askedAt = performance.now();
    await client.appRuns.pushPadValue(run.id, { node: 'chat', pad: 'output', value: { type: 'string', value: 'What is the weather like today?' } });
    // A good part of the answer reached the human before they leave (the run, and its recording, end then).
    const audibleHeardMs = () =>
      human.heard.filter((frame) => frame.at >= askedAt && frame.rms > AUDIBLE_RMS).reduce((ms, frame) => ms + frame.samples.length / 48, 0);
    await eventually(() => expect(audibleHeardMs()).toBeGreaterThan(1500), 30_000);
    await endRun(client, run.id, human);
    expect(await rowsOf(run.id)).toHaveLength(1);

    const response = await test.server.fetch(
      new Request(`http://palaver.test/v1/app/run/${run.id}/recording`, { headers: { 'x-api-key': test.server.apiKey } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = readWav(new Uint8Array(await response.arrayBuffer()));
    expect({ channels: wav.channels, sampleRate: wav.sampleRate }).toEqual({ channels: 2, sampleRate: 16_000 });
    const [left, right] = wav.sides as [Int16Array, Int16Array];
    const speechMs = speech.speechEndMs - speech.speechStartMs;
    expect(audibleMs(left, wav.sampleRate)).toBeGreaterThan(speechMs * 0.5);
    expect(audibleMs(right, wav.sampleRate)).toBeGreaterThan(1000);
    // On the run's clock the human spoke first, then the graph answered: the left's speech ends before the right's begins.
    const leftLoud = loudWindowsMs(left, wav.sampleRate);
    const rightLoud = loudWindowsMs(right, wav.sampleRate);
    expect(leftLoud.at(-1)!).toBeLessThan(rightLoud[0]!);

    // The client's method reads the same file.
    const blob = await client.appRuns.recording(run.id);
    expect(blob.type).toBe('audio/wav');
    expect(blob.size).toBe(44 + left.length * 4);
  });

  it('records nothing for a run that did not opt in: 404 with the error shape, and no row once it ended', async () => {
    for (const recording of [undefined, false]) {
      const { client, run, human } = await startRun(recording);
      await human.say(await fliteSpeech(test.server.services.speech, 'nobody keeps this'), 300);
      await endRun(client, run.id, human);
      expect(await rowsOf(run.id)).toEqual([]);
      const failure = await client.appRuns.recording(run.id).catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 404, type: 'not_found', message: expect.stringContaining('has no recording') });
    }
  });

  it('deleting the ended run deletes its recording; a running one cannot be deleted', async () => {
    const { client, run, human } = await startRun(true);
    await human.say(await fliteSpeech(test.server.services.speech, 'delete me'), 300);
    await expect(client.appRuns.delete(run.id)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('is running') });
    await endRun(client, run.id, human);
    expect(await rowsOf(run.id)).toHaveLength(1);
    await client.appRuns.delete(run.id);
    expect(await rowsOf(run.id)).toEqual([]);
    await expect(client.appRuns.recording(run.id)).rejects.toMatchObject({ status: 404, type: 'not_found' });
    await expect(client.appRuns.delete(run.id)).rejects.toMatchObject({ status: 404 });
    // Its id is free again: the deleted run is gone, not ended.
    await expect(client.appRuns.debug({ run_id: run.id })).rejects.toMatchObject({ status: 404, message: expect.stringContaining('not found') });
  });
});
