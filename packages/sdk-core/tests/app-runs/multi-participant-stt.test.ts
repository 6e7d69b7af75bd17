import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGER } from '../../src/contract/graph/pad-values.js';
import { speechConfigFrom } from '../../src/server/domain/voices/platform-speech.js';
import { createSpeech, type Speech } from '../../src/server/engines/speech/index.js';
import { RuntimeSinkPad } from '../../src/server/graph/runtime/pads.js';
import { validateGraph } from '../../src/server/graph/validation/validate-graph.js';
import { platformNodeLibrary } from '../../src/server/graph/library/node-library.js';
import { loadConfig } from '../../src/server/kernel/config.js';
import { DEFAULT_TURN_DETECTION } from '../../src/server/voice/index.js';
import { fliteSpeech, HumanParticipant } from '../../src/testing/agent-harness.js';
import { graphOf, runGraph, type GraphKitRun } from '../../src/testing/graph-kit.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { RuntimeApiProbe } from './runtime-api-probe.js';

function sink(run: GraphKitRun, path: string): RuntimeSinkPad {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  return pad;
}

/** Plays PCM onto a pad as a microphone would: 20 ms frames in real time, then `trailingMs` of silence. */
async function play(run: GraphKitRun, path: string, identity: string, pcm: Int16Array, sampleRate: number, trailingMs = 1500): Promise<void> {
  const frame = sampleRate / 50;
  const padded = new Int16Array(pcm.length + Math.round((trailingMs / 1000) * sampleRate));
  padded.set(pcm);
  const started = performance.now();
  for (let offset = 0, index = 0; offset < padded.length; offset += frame, index += 1) {
    sink(run, path).receive({ kind: 'runtime:audio', frame: { samples: padded.slice(offset, offset + frame), sampleRate, channels: 1 }, origin: identity });
    const due = started + (index + 1) * 20 - performance.now();
    if (due > 0) await sleep(due);
  }
}

/**
 * MultiParticipantSTT through the runtime on the platform's offline engines (Silero or energy VAD, pocketsphinx):
 * two humans, each on their own pad, speak overlapping sentences; each one's words come on their own
 * transcription pad, and the floor goes WAITING_FOR_HUMAN -> TALKING -> COOLDOWN -> AI_CAN_TALK.
 */
describe.skipIf(!pocketsphinxAvailable())('MultiParticipantSTT', () => {
  let speech: Speech;

  beforeAll(() => {
    speech = createSpeech(speechConfigFrom(loadConfig({}).speech));
  });

  afterAll(async () => {
    await speech?.close();
  });

  it('who said what: each participant on their own transcription pad; the floor follows them and the cooldown', async () => {
    const document = graphOf([{ id: 'mp', type: 'MultiParticipantSTT', values: { num_participants: 2, cooldown_time_ms: 300 } }]);
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
    const run = runGraph(document, { engines: { speech, turnDetection: { ...DEFAULT_TURN_DETECTION, mode: 'fixed', silenceMs: 600 } } });
    try {
      const alice = run.record('mp.transcription_0');
      const bob = run.record('mp.transcription_1');
      const states = run.record('mp.current_state');
      const previous = run.record('mp.previous_state');
      const speakingBob = run.record('mp.is_speaking_1');
      const started = run.record('mp.speech_started');
      const ended = run.record('mp.speech_ended');
      const [first, second] = await Promise.all([
        fliteSpeech(speech, 'What time does the train leave?'),
        fliteSpeech(speech, 'Please open the window.', 'rms'),
      ]);
      // Bob starts while Alice is still speaking.
      await Promise.all([
        play(run, 'mp.audio_0', 'alice', first.pcm, first.sampleRate),
        sleep(700).then(() => play(run, 'mp.audio_1', 'bob', second.pcm, second.sampleRate)),
      ]);
      await eventually(() => expect(ended).toHaveLength(2), 20_000);
      expect(started).toEqual([TRIGGER, TRIGGER]);
      expect(alice.join(' ')).toMatch(/train/);
      expect(bob.join(' ')).toMatch(/window/);
      expect(alice.join(' ')).not.toMatch(/window/);
      expect(speakingBob).toEqual([true, false]);
      await eventually(() => expect(states.at(-1)).toBe('AI_CAN_TALK'), 5_000);
      // The overlap kept one TALKING stretch.
      expect(states).toEqual(['TALKING', 'COOLDOWN', 'AI_CAN_TALK']);
      expect(previous).toEqual(['WAITING_FOR_HUMAN', 'TALKING', 'COOLDOWN']);
      expect(run.logs.some((entry) => entry.node === 'mp' && entry.pad === 'transcription_1' && entry.message.startsWith('bob:'))).toBe(true);
      // force_ai_talk while someone speaks gives the AI the floor at once.
      const playing = play(run, 'mp.audio_0', 'alice', first.pcm, first.sampleRate, 800);
      await eventually(() => expect(states.at(-1)).toBe('TALKING'), 5_000);
      sink(run, 'mp.force_ai_talk').receive(TRIGGER);
      expect(states.at(-1)).toBe('AI_CAN_TALK');
      await playing;
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
  }, 60_000);

  it('refuses a graph whose participant count is not a positive integer, naming node and pad', () => {
    const document = graphOf([{ id: 'mp', type: 'MultiParticipantSTT', values: { num_participants: 0 } }]);
    const problems = validateGraph(document, new Map(), platformNodeLibrary);
    expect(problems.map((problem) => JSON.stringify(problem)).join('\n')).toMatch(/mp.*num_participants|num_participants.*mp/);
  });
});

/**
 * Two humans in the room of an app run, each publishing to their own Publish node (`publish_a:audio`,
 * `publish_b:audio`), into a MultiParticipantSTT: each one's words on their transcription pad, as the room's runtime
 * API tells a subscriber.
 */
describe.skipIf(!pocketsphinxAvailable())('MultiParticipantSTT in an app run: two humans in one room', () => {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  it('who said what, over the runtime API', async () => {
    const graph = graphOf(
      [
        { id: 'publish_a', type: 'Publish' },
        { id: 'publish_b', type: 'Publish' },
        { id: 'mp', type: 'MultiParticipantSTT', values: { num_participants: 2, cooldown_time_ms: 300 } },
      ],
      [
        { from: 'publish_a.audio', to: 'mp.audio_0' },
        { from: 'publish_b.audio', to: 'mp.audio_1' },
      ],
    );
    const run = await test.client.appRuns.createFromGraph({ graph });
    const { transport } = test.server.services.media;
    const alice = await HumanParticipant.join(transport, run.app_run.id, 'alice', 16_000, 'publish_a:audio');
    const bob = await HumanParticipant.join(transport, run.app_run.id, 'bob', 16_000, 'publish_b:audio');
    const probe = new RuntimeApiProbe(alice.connection);
    await eventually(() => expect(alice.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    for (const pad of ['transcription_0', 'transcription_1', 'current_state']) await probe.request({ type: 'subscribe', node_id: 'mp', pad_id: pad });
    const [first, second] = await Promise.all([
      fliteSpeech(test.server.services.speech, 'Please call me tomorrow morning.'),
      fliteSpeech(test.server.services.speech, 'The weather is cold today.', 'rms'),
    ]);
    await alice.say(first);
    await bob.say(second);
    await eventually(() => expect(probe.values('mp', 'transcription_1').length).toBeGreaterThan(0), 20_000);
    const said = (pad: string) =>
      probe
        .values('mp', pad)
        .map((value) => (value as { value: string }).value)
        .join(' ');
    expect(said('transcription_0')).toMatch(/tomorrow|morning/);
    expect(said('transcription_0')).not.toMatch(/weather|cold/);
    expect(said('transcription_1')).toMatch(/weather|cold/);
    await eventually(() => expect(probe.values('mp', 'current_state')).toContainEqual({ type: 'enum', value: 'AI_CAN_TALK' }), 5_000);
    await alice.leave();
    await bob.leave();
  }, 60_000);
});
