import type { Logger } from 'pino';
import type { Speech, SttEngine, VoiceActivityDetector } from '../../engines/speech/index.js';

/** What the agent listens with; either may be missing (then it says why). */
export interface ListeningEngines {
  /** Undefined when the VAD model cannot load: no speech input at all. */
  vad: VoiceActivityDetector | undefined;
  /** Undefined when no STT engine is available: speech is detected (barge-in) but not transcribed. */
  stt: SttEngine | undefined;
  /** Why there is no STT engine. */
  sttUnavailableReason: string | undefined;
}

/** Speech stacks whose missing engines were already logged. */
const reported = new WeakSet<object>();

/**
 * Loads the VAD and starts the STT engine (its first decoder), without failing: a missing engine turns
 * speech input off, and typed turns still work.
 *
 * @example
 * const { vad, stt, sttUnavailableReason } = await loadListeningEngines(services.speech, logger);
 */
export async function loadListeningEngines(speech: Pick<Speech, 'stt' | 'vad'>, logger: Logger): Promise<ListeningEngines> {
  let sttUnavailableReason: string | undefined;
  const firstReport = !reported.has(speech);
  reported.add(speech);
  const [vad, stt] = await Promise.all([
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
  ]);
  // Once per server: what is missing and which package or system component brings it.
  if (firstReport && vad?.fallbackReason) logger.warn(vad.fallbackReason);
  if (firstReport && sttUnavailableReason) logger.warn(`speech input is off: ${sttUnavailableReason}; typed turns still work`);
  return { vad, stt, sttUnavailableReason };
}
