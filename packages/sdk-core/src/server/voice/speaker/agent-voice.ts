import type { Logger } from 'pino';
import type { RealtimeSessionConfig } from '../../../contract/realtime.js';
import type { Voice } from '../../../contract/voices.js';
import type { Principal } from '../../kernel/principal.js';
import type { VoiceSelection } from '../../engines/speech/index.js';

/** Voice lookups and speech metering (the voice synthesis service fits). */
export interface AgentVoices {
  /** The voice with this id as the principal may use it, or the platform default voice for undefined. */
  resolveVoice(principal: Principal, voiceId: string | undefined): Promise<Voice>;
  /** Records seconds of synthesized speech for the principal's human (`voice_synthesis_seconds`). */
  recordUsage?(subject: Principal, seconds: number, metadata: Record<string, unknown>): Promise<void>;
  /** Throws `UsageLimitExceededError` when the principal's human has used up `voice_synthesis_seconds`. */
  assertWithinLimit?(subject: Principal): Promise<void>;
}

/** The built-in voice used when nothing else is known (Flite `slt`, the platform default). */
export const FALLBACK_VOICE: VoiceSelection = { service: 'flite', voice: 'slt' };

/** A resolved voice with the id it is known by (for usage records). */
export interface SessionVoice {
  id: string;
  selection: VoiceSelection;
}

/**
 * The voice a session speaks with: `voice_override`, else the persona's voice, else the platform default.
 * A persona voice that cannot be resolved (deleted, not visible) falls back to the default, logged.
 *
 * @example
 * const voice = await resolveSessionVoice(config.generative, principal, voices, logger);
 * speech.tts.synthesize({ voice: voice.selection, text: 'Hello.' });
 */
export async function resolveSessionVoice(
  generative: Pick<RealtimeSessionConfig['generative'], 'voice_override' | 'persona'>,
  principal: Principal,
  voices: AgentVoices | undefined,
  logger: Logger,
): Promise<SessionVoice> {
  const override = generative.voice_override;
  if (override) return { id: override.id, selection: override };
  const personaVoice = generative.persona?.voice;
  if (voices) {
    if (personaVoice) {
      try {
        const voice = await voices.resolveVoice(principal, personaVoice);
        return { id: voice.id, selection: voice };
      } catch (error) {
        logger.warn({ err: error, voice: personaVoice }, "the persona's voice cannot be used; speaking with the default voice");
      }
    }
    try {
      const voice = await voices.resolveVoice(principal, undefined);
      return { id: voice.id, selection: voice };
    } catch (error) {
      logger.warn({ err: error }, 'the default voice cannot be resolved; speaking with Flite slt');
    }
  }
  return { id: 'flite-slt', selection: FALLBACK_VOICE };
}
