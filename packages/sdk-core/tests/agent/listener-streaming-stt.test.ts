import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { speechConfigFrom } from '../../src/server/domain/voices/platform-speech.js';
import { loadConfig } from '../../src/server/kernel/config.js';
import { createSpeech, type Speech, type StreamingSttUsage } from '../../src/server/engines/speech/index.js';
import type { AudioFrame, RemoteAudioTrack } from '../../src/server/engines/media/index.js';
import { DEFAULT_TURN_DETECTION, HumanListener, type HeardUtterance } from '../../src/server/voice/listener/human-listener.js';
import { loadListeningEngines } from '../../src/server/voice/listener/listening-engines.js';
import { startFakeDeepgramLive, type FakeDeepgramLive } from '../../src/testing/streaming-stt/fake-deepgram-live.js';
import { fliteSpeech } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';

const KEY = 'listener-key';
const SAID = ['Please call me tomorrow morning.', 'What time does the train leave?'];

/** A microphone playing `pcm` in 20 ms frames at the pace it was spoken, then ending. */
function microphone(pcm: Int16Array, sampleRate: number): RemoteAudioTrack {
  return {
    trackSid: 'TR_listener',
    name: 'microphone',
    participant: { identity: 'human', name: 'human', metadata: '', attributes: {} } as RemoteAudioTrack['participant'],
    async *frames(): AsyncIterable<AudioFrame> {
      const frame = (sampleRate * 20) / 1000;
      const started = performance.now();
      for (let offset = 0, index = 0; offset < pcm.length; offset += frame, index += 1) {
        const wait = started + index * 20 - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        yield { samples: pcm.subarray(offset, offset + frame), sampleRate, channels: 1 };
      }
    },
  };
}

describe('the listener on a hosted streaming STT (fake Deepgram)', () => {
  let fake: FakeDeepgramLive;
  let speech: Speech;

  beforeAll(async () => {
    fake = await startFakeDeepgramLive({ apiKey: KEY, script: SAID });
    const config = loadConfig({
      PALAVER_SPEECH_STREAMING_STT_PROVIDER: 'deepgram',
      PALAVER_SPEECH_STREAMING_STT_URL: fake.url,
      PALAVER_SPEECH_STREAMING_STT_API_KEY: KEY,
    });
    speech = createSpeech({ ...speechConfigFrom(config.speech), stt: { provider: 'none' } });
  });

  afterAll(async () => {
    await speech?.close();
    await fake?.close();
  });

  it('hears two utterances over one stream fed all the audio, and meters its seconds once when it closes', async () => {
    const engines = await loadListeningEngines(speech, pino({ level: 'silent' }));
    expect(engines.stt?.provider).toBe('deepgram');
    const parts = await Promise.all(SAID.map((text) => fliteSpeech(speech, text)));
    const rate = parts[0]!.sampleRate;
    const gap = new Int16Array(rate * 2);
    const pcm = new Int16Array(parts[0]!.pcm.length + gap.length + parts[1]!.pcm.length + gap.length);
    pcm.set(parts[0]!.pcm);
    pcm.set(parts[1]!.pcm, parts[0]!.pcm.length + gap.length);
    const heard: HeardUtterance[] = [];
    const usage: StreamingSttUsage[] = [];
    const failures: Error[] = [];
    const listener = new HumanListener({
      track: microphone(pcm, rate),
      vad: engines.vad!,
      stt: engines.stt,
      meter: (used) => usage.push(used),
      turnDetection: DEFAULT_TURN_DETECTION,
      logger: pino({ level: 'silent' }),
      callbacks: {
        speechStarted: () => ({ interim: () => undefined, finished: (utterance) => heard.push(utterance) }),
        failed: (error) => failures.push(error),
      },
    });
    await listener.run();
    await eventually(() => expect(usage).toHaveLength(1), 10_000);
    expect(heard.map((utterance) => utterance.text)).toEqual(SAID);
    // The words decided the wait at the pause that ended each turn (a finished statement, a question).
    expect(heard.map((utterance) => utterance.endOfTurn?.reason)).toEqual(['statement', 'question']);
    expect(fake.requests).toHaveLength(1);
    // Every sample went to the vendor (at the listener's 16 kHz), silences included, and was metered as such.
    const seconds = pcm.length / rate;
    expect(usage[0]).toMatchObject({ provider: 'deepgram', model: 'nova-3' });
    expect(usage[0]!.audioSeconds).toBeCloseTo(fake.audioSeconds, 2);
    expect(Math.abs(usage[0]!.audioSeconds - seconds)).toBeLessThan(0.05);
    expect(failures).toEqual([]);
  }, 30_000);
});
