import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechConfigFrom } from '../../src/server/domain/voices/platform-speech.js';
import { createSpeech, type Speech } from '../../src/server/engines/speech/index.js';
import { platformNodeLibrary } from '../../src/server/graph/library/node-library.js';
import { visemeOf } from '../../src/server/graph/library/visemes/phoneme-visemes.js';
import { RuntimeSinkPad } from '../../src/server/graph/runtime/pads.js';
import type { AudioFramePacket } from '../../src/server/graph/runtime/stream-values.js';
import { validateGraph } from '../../src/server/graph/validation/validate-graph.js';
import { loadConfig } from '../../src/server/kernel/config.js';
import { phonemesOf } from '../../src/server/voice/index.js';
import { rms, speechBounds } from '../../src/testing/agent-harness.js';
import { startFakeLocalSpeechServer, type FakeLocalSpeechServer } from '../../src/testing/fake-local-speech-server.js';
import { graphOf, runGraph, type GraphKitRun } from '../../src/testing/graph-kit.js';
import { eventually } from '../../src/testing/media-test-support.js';

function sink(run: GraphKitRun, path: string): RuntimeSinkPad {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  return pad;
}

/** The audio of every frame in one buffer, and each phoneme carried at its place in it. */
function joined(packets: AudioFramePacket[]) {
  const rate = packets[0]!.frame.sampleRate;
  const pcm = new Int16Array(packets.reduce((sum, packet) => sum + packet.frame.samples.length, 0));
  const phonemes: Array<{ phoneme: string; startMs: number; endMs: number }> = [];
  let offset = 0;
  for (const packet of packets) {
    pcm.set(packet.frame.samples, offset);
    const frameMs = (offset / rate) * 1000;
    for (const phoneme of phonemesOf(packet.frame) ?? []) {
      phonemes.push({ phoneme: phoneme.phoneme, startMs: frameMs + phoneme.offsetMs, endMs: frameMs + phoneme.offsetMs + phoneme.durationMs });
    }
    offset += packet.frame.samples.length;
  }
  const windowRms = (startMs: number, endMs: number) => rms(pcm.subarray(Math.round((startMs / 1000) * rate), Math.round((endMs / 1000) * rate)));
  return { pcm, rate, phonemes, windowRms };
}

describe('LocalViseme and VisemeDebug', () => {
  let speech: Speech;
  let server: FakeLocalSpeechServer;

  beforeAll(async () => {
    speech = createSpeech(speechConfigFrom(loadConfig({}).speech));
    server = await startFakeLocalSpeechServer([]);
  });

  afterAll(async () => {
    await speech?.close();
    await server?.close();
  });

  it("TTS (Flite) -> LocalViseme -> VisemeDebug: the phonemes travel with the speech, on the audio's time; their visemes are told in order", async () => {
    const document = graphOf(
      [
        { id: 'tts', type: 'TTS' },
        { id: 'lips', type: 'LocalViseme' },
        { id: 'debug', type: 'VisemeDebug' },
      ],
      [
        { from: 'tts.audio', to: 'lips.audio' },
        { from: 'lips.viseme', to: 'debug.viseme' },
      ],
    );
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
    const run = runGraph(document, { engines: { speech } });
    try {
      const audio = run.record('lips.audio_src') as AudioFramePacket[];
      const visemes = run.record('lips.viseme');
      const finished = run.record('tts.complete_transcription');
      sink(run, 'tts.text').receive('Hello world.');
      await eventually(() => expect(finished).toEqual(['Hello world.']), 20_000);
      await eventually(() => expect(visemes.at(-1)).toBe('SILENCE'), 5_000);
      const { phonemes, windowRms, pcm, rate } = joined(audio.filter((packet) => packet.kind === 'runtime:audio'));
      // Flite's phones, the leading pause cut with the silence before the speech.
      expect(phonemes.map((phoneme) => phoneme.phoneme)).toEqual(['pau', 'hh', 'ax', 'l', 'ow', 'w', 'er', 'l', 'd', 'pau']);
      // On the audio's time: the vowels are sounding where they are placed, and the speech ends with the last phone.
      for (const vowel of phonemes.filter((phoneme) => ['ax', 'ow', 'er'].includes(phoneme.phoneme))) {
        expect(windowRms(vowel.startMs, vowel.endMs), `${vowel.phoneme} at ${vowel.startMs.toFixed(0)} ms`).toBeGreaterThan(1000);
      }
      // The sound starts with 'hh' and stops with 'd' (within 40 ms).
      const bounds = speechBounds(pcm);
      expect(Math.abs((bounds.first / rate) * 1000 - phonemes.find((phoneme) => phoneme.phoneme === 'hh')!.startMs)).toBeLessThan(40);
      expect(Math.abs((bounds.last / rate) * 1000 - phonemes.find((phoneme) => phoneme.phoneme === 'd')!.endMs)).toBeLessThan(40);
      const lastPause = phonemes.at(-1)!;
      expect(windowRms(lastPause.startMs + 20, (pcm.length / rate) * 1000)).toBeLessThan(300);
      const speechMs = phonemes.find((phoneme) => phoneme.phoneme === 'd')!.endMs;
      expect(Math.abs(speechMs - lastPause.startMs)).toBeLessThan(1);
      // The visemes told: each phone's, without repeats, ending silent.
      const expected = phonemes
        .map((phoneme) => visemeOf({ phoneme: phoneme.phoneme, alphabet: 'arpabet' }))
        .filter((viseme, index, all) => index === 0 || viseme !== all[index - 1]);
      expect(visemes).toEqual(expected);
      expect(run.logs.filter((entry) => entry.node === 'debug').map((entry) => entry.message)).toEqual(expected.map((viseme) => `Viseme Frame: ${viseme}`));
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
  }, 30_000);

  it('audio without phonemes goes to the local lip-sync server (fake, the engine protocol); its visemes are told, the audio passed on in order', async () => {
    const document = graphOf([{ id: 'lips', type: 'LocalViseme', values: { port: server.port } }]);
    const run = runGraph(document, { engines: { localServers: { url: 'http://127.0.0.1', ports: [server.port] } } });
    try {
      const audio = run.record('lips.audio_src') as AudioFramePacket[];
      const visemes = run.record('lips.viseme');
      const sent: Int16Array[] = [];
      for (let index = 0; index < 40; index += 1) {
        const samples = new Int16Array(960);
        if (index >= 10 && index < 30)
          for (let sample = 0; sample < 960; sample += 1) samples[sample] = Math.round(8000 * Math.sin((2 * Math.PI * 300 * sample) / 48_000));
        sent.push(samples);
        sink(run, 'lips.audio').receive({ kind: 'runtime:audio', frame: { samples, sampleRate: 48_000, channels: 1 }, origin: 'avatar-voice' });
        await sleep(20);
      }
      await eventually(() => expect(audio).toHaveLength(40), 5_000);
      expect(audio.map((packet) => packet.frame.samples)).toEqual(sent);
      expect(server.sessions.at(-1)!.start).toEqual({ sample_rate: 16_000, stt_enabled: false, lipsync_enabled: true });
      await eventually(() => expect(visemes).toContain('AA'), 5_000);
      expect(visemes[0]).toBe('SILENCE');
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
  });
});
