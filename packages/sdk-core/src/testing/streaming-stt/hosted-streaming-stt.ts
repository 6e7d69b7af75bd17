import { createStreamingStt, type SttEngine } from '../../server/engines/speech/index.js';
import { StreamingListeningStt } from '../../server/voice/listener/streaming-listening-stt.js';
import { startFakeDeepgramLive, type FakeDeepgramLive, type FakeDeepgramLiveOptions } from './fake-deepgram-live.js';

const HOSTED_KEY = 'hosted-profile-key';

export interface HostedStreamingSttOptions extends Omit<FakeDeepgramLiveOptions, 'apiKey'> {
  /** Deepgram's `endpointing` the engine asks for (the platform's default, 300 ms). */
  endpointingMs?: number;
}

/** A hosted streaming STT as the listener uses it, on a fake Deepgram of its own. */
export interface HostedStreamingStt {
  /** The listener's engine: one stream per track (`loadListeningEngines` gives the same for `Speech.streamingStt`). */
  stt: SttEngine;
  fake: FakeDeepgramLive;
  close(): Promise<void>;
}

/**
 * The "hosted streaming STT" profile: a local fake Deepgram (live websocket protocol, interims every ~100 ms, the
 * final ~150 ms after the speech ends, the configured word error rate) and the Deepgram engine talking to it.
 *
 * @example
 * const hosted = await startHostedStreamingStt({ script: ['Book a table for two.'], wordErrorRate: 0.1, finalizeDelayMs: 100 });
 * const listener = new HumanListener({ track, vad, stt: hosted.stt, turnDetection, callbacks, logger });
 * await hosted.close();
 */
export async function startHostedStreamingStt(options: HostedStreamingSttOptions): Promise<HostedStreamingStt> {
  const { endpointingMs = 300, ...fakeOptions } = options;
  const fake = await startFakeDeepgramLive({ ...fakeOptions, apiKey: HOSTED_KEY });
  const engine = createStreamingStt({ provider: 'deepgram', apiKey: HOSTED_KEY, url: fake.url, endpointingMs });
  return {
    stt: new StreamingListeningStt(engine),
    fake,
    async close() {
      await engine.close();
      await fake.close();
    },
  };
}
