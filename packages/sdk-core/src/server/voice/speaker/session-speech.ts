import type { Logger } from 'pino';
import type { Speech } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { AgentVoices, SessionVoice } from './agent-voice.js';
import { speechBudgetRefusal, type SpeechRefusal } from './speech-budget.js';

/** The voice asked for now: a key that changes when the choice changes, and how to resolve it. */
export interface VoiceChoice {
  key: string;
  resolve(): Promise<SessionVoice>;
}

export interface SessionSpeechOptions {
  tts: Speech['tts'];
  voices: AgentVoices | undefined;
  /** Whose `voice_synthesis_seconds` are checked and recorded. */
  principal: Principal;
  /** The voice to speak with now (a session's persona or override; a TTS node's `voice_id`). */
  choice(): VoiceChoice;
  /** Stored with each usage record (`{ source: 'realtime', session }`, `{ app_run, node }`). */
  usage: Record<string, unknown>;
  logger: Logger;
}

/**
 * A conversation's speech: the voice (resolved once per choice), its engine warmed before the first word,
 * the human's `voice_synthesis_seconds` checked before an utterance and recorded after it.
 *
 * @example
 * const speech = new SessionSpeech({ tts, voices, principal, choice: () => ({ key: id, resolve }), usage: { session }, logger });
 * if (!(await speech.refusal())) { const voice = await speech.voice(); ...; speech.record(voice, seconds); }
 */
export class SessionSpeech {
  private cached: { key: string; voice: Promise<SessionVoice> } | undefined;

  constructor(private readonly options: SessionSpeechOptions) {}

  /** The voice chosen now, resolved once while the choice stays the same. */
  voice(): Promise<SessionVoice> {
    const choice = this.options.choice();
    if (this.cached?.key !== choice.key) this.cached = { key: choice.key, voice: choice.resolve() };
    return this.cached.voice;
  }

  /** Starts the voice's engine (its worker) so the first utterance does not wait for it; never fails. */
  async warmUp(): Promise<void> {
    try {
      const voice = await this.voice();
      await this.options.tts.engine(voice.selection.service ?? 'flite')?.warmUp?.();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'the TTS engine did not warm up');
    }
  }

  /** Why the human may not be spoken to now (their `voice_synthesis_seconds` are used up), or undefined. */
  refusal(): Promise<SpeechRefusal | undefined> {
    return speechBudgetRefusal(this.options.voices, this.options.principal);
  }

  /** Records `seconds` of speech in `voice` for the human. */
  record(voice: SessionVoice, seconds: number): void {
    const { voices } = this.options;
    if (!voices?.recordUsage || seconds <= 0) return;
    const metadata = { ...this.options.usage, voice: voice.id };
    voices
      .recordUsage(this.options.principal, seconds, metadata)
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'recording speech usage failed'));
  }
}
