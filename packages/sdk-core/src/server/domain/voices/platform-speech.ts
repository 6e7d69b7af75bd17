import type { ServerConfig } from '../../kernel/config.js';
import type { SpeechConfigInput } from '../../engines/speech/index.js';
import type { Moderator } from './moderator.js';
import { OpenAiModerator } from './openai-moderator.js';
import { WordListModerator } from './word-list-moderator.js';

/**
 * Maps the server's flat `speech` settings (environment `PALAVER_SPEECH_*`) onto the engines' configuration:
 * embedded Flite and eSpeak-NG always, plus the OpenAI-compatible endpoints whose base URL is set.
 *
 * @example
 * const speech = createSpeech(speechConfigFrom(config.speech));
 */
export function speechConfigFrom(settings: ServerConfig['speech']): SpeechConfigInput {
  return {
    tts: {
      embedded: ['flite', 'espeak-ng'],
      jobTimeoutMs: settings.jobTimeoutMs,
      ...(settings.ttsBaseUrl
        ? { openai: { baseUrl: settings.ttsBaseUrl, model: settings.ttsModel, ...(settings.ttsApiKey ? { apiKey: settings.ttsApiKey } : {}) } }
        : {}),
    },
    stt: {
      provider: settings.sttProvider,
      ...(settings.sttBaseUrl
        ? { openai: { baseUrl: settings.sttBaseUrl, model: settings.sttModel, ...(settings.sttApiKey ? { apiKey: settings.sttApiKey } : {}) } }
        : {}),
    },
    ...streamingSttFrom(settings),
    vad: { engine: settings.vad },
  };
}

/** The hosted streaming STT service when a provider is chosen (its key is required then: `createServer` refuses without). */
function streamingSttFrom(settings: ServerConfig['speech']): Pick<SpeechConfigInput, 'streamingStt'> {
  if (settings.streamingSttProvider === 'none') return {};
  if (!settings.streamingSttApiKey) {
    throw new Error(`PALAVER_SPEECH_STREAMING_STT_PROVIDER is ${settings.streamingSttProvider}: set PALAVER_SPEECH_STREAMING_STT_API_KEY too`);
  }
  return {
    streamingStt: {
      provider: settings.streamingSttProvider,
      apiKey: settings.streamingSttApiKey,
      endpointingMs: settings.streamingSttEndpointingMs,
      ...(settings.streamingSttUrl ? { url: settings.streamingSttUrl } : {}),
      ...(settings.streamingSttModel ? { model: settings.streamingSttModel } : {}),
    },
  };
}

/**
 * The moderator `moderation: true` uses: the OpenAI-compatible endpoint when configured, else the embedded
 * word list.
 *
 * @example
 * const moderator = moderatorFrom(config.speech);
 */
export function moderatorFrom(settings: ServerConfig['speech']): Moderator {
  if (!settings.moderationBaseUrl) return new WordListModerator();
  return new OpenAiModerator({
    baseUrl: settings.moderationBaseUrl,
    model: settings.moderationModel,
    timeoutMs: 15_000,
    ...(settings.moderationApiKey ? { apiKey: settings.moderationApiKey } : {}),
  });
}
