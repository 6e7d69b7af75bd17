import type { audioRoutes } from '../../../../contract/audio.js';
import { openAiSpeech } from '../../../domain/audio/openai-speech.js';
import { openAiTranscription } from '../../../domain/audio/openai-transcription.js';
import type { GroupHandlers } from '../handler.js';

export const audioHandlers: GroupHandlers<typeof audioRoutes> = {
  speech: async ({ body }, { services, principal, signal }) => openAiSpeech(services.voiceSynthesis, principal, body, signal),
  transcriptions: async ({ body }, { services, signal }) => openAiTranscription(services.speech, body, signal),
};
