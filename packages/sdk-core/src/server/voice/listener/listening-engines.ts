import type { Logger } from 'pino';
import type { Speech, SttEngine, VoiceActivityDetector } from '../../engines/speech/index.js';
import { StreamingListeningStt } from './streaming-listening-stt.js';

/** What the agent listens with; either may be missing (then it says why). */
export interface ListeningEngines {
  /** Undefined when the VAD model cannot load: no speech input at all. */
  vad: VoiceActivityDetector | undefined;
  /**
   * Undefined when no STT engine is available: speech is detected (barge-in) but not transcribed. The hosted
   * streaming engine when one is configured and available (a {@link StreamingListeningStt}: the listener keeps one
   * vendor stream per track), else the offline or hosted per-utterance engine.
   */
  stt: SttEngine | undefined;
  /** Why there is no STT engine. */
  sttUnavailableReason: string | undefined;
}

/** Speech stacks whose missing engines were already logged. */
const reported = new WeakSet<object>();

/**
 * Loads the VAD and starts the STT engine (its first decoder), without failing: a missing engine turns
 * speech input off, and typed turns still work. A configured streaming engine (`Speech.streamingStt`) is preferred;
 * when it is not available (no key) the per-utterance engine is used, and why is logged once.
 *
 * @example
 * const { vad, stt, sttUnavailableReason } = await loadListeningEngines(services.speech, logger);
 */
export async function loadListeningEngines(
  speech: Pick<Speech, 'stt' | 'vad'> & Partial<Pick<Speech, 'streamingStt'>>,
  logger: Logger,
): Promise<ListeningEngines> {
  let sttUnavailableReason: string | undefined;
  const firstReport = !reported.has(speech);
  reported.add(speech);
  const [vad, stt, streaming] = await Promise.all([
    speech.vad().catch((error: unknown) => {
      logger.error({ err: error }, 'the voice activity detector cannot load: speech input is off');
      return undefined;
    }),
    speech.stt.status().then(
      (status) => {
        if (status.available) return speech.stt;
        sttUnavailableReason = status.reason ?? 'no STT engine';
        return undefined;
      },
      (error: unknown) => {
        sttUnavailableReason = error instanceof Error ? error.message : String(error);
        return undefined;
      },
    ),
    streamingEngine(speech, firstReport, logger),
  ]);
  // Once per server: what is missing and which package or system component brings it.
  if (firstReport && vad?.fallbackReason) logger.warn(vad.fallbackReason);
  if (firstReport && sttUnavailableReason && !streaming) logger.warn(`speech input is off: ${sttUnavailableReason}; typed turns still work`);
  if (streaming) return { vad, stt: streaming, sttUnavailableReason: undefined };
  return { vad, stt, sttUnavailableReason };
}

/** The configured streaming engine when it is available. */
async function streamingEngine(speech: Partial<Pick<Speech, 'streamingStt'>>, report: boolean, logger: Logger): Promise<SttEngine | undefined> {
  const engine = speech.streamingStt;
  if (!engine) return undefined;
  const status = await engine.status().catch((error: unknown) => ({ available: false, reason: error instanceof Error ? error.message : String(error) }));
  if (status.available) return new StreamingListeningStt(engine);
  if (report) logger.warn(`the streaming STT engine (${engine.provider}) is not available: ${status.reason ?? 'unknown'}; the per-utterance engine listens`);
  return undefined;
}
