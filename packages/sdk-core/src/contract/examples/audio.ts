import type { audioRoutes } from '../audio.js';
import type { GroupExamples } from './route-example.js';

export const audioExamples: GroupExamples<typeof audioRoutes> = {
  speech: {
    description: 'The answer is the audio (here MP3), streamed as it is made.',
    body: { model: 'tts-1', input: 'Your order has shipped and arrives on Friday.', voice: 'flite-slt', response_format: 'mp3' },
  },
  transcriptions: {
    description: 'A multipart form: the recording as `file`, the model and the answer format.',
    body: { file: 'question.wav', model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': ['segment', 'word'] },
  },
};
