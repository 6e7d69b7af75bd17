import type { RouteInput } from '../../contract/define-route.js';
import type { audioRoutes } from '../../contract/audio.js';
import type { RequestOptions } from '../http-client.js';
import { Resource } from '../resource.js';

type Routes = typeof audioRoutes;

/** What `transcriptions` uploads: the recording may be any Blob (a File keeps its name). */
export type TranscriptionParams = Omit<RouteInput<Routes['transcriptions']>['body'], 'file'> & { file: Blob };

/** OpenAI's audio endpoints over the platform's voices and STT engine (the `openai` package works with them too). */
export class Audio extends Resource {
  /**
   * Speech of `input` with a platform voice, in `response_format` (mp3 by default).
   *
   * @example
   * const audio = await client.audio.speech({ model: 'tts-1', input: 'Hello there', voice: 'flite-slt', response_format: 'wav' });
   */
  speech(body: RouteInput<Routes['speech']>['body'], options?: RequestOptions): Promise<Blob> {
    return this.http.call<Routes['speech']>({ method: 'POST', path: '/v1/audio/speech' }, { body }, options);
  }

  /**
   * The transcript of a recording (wav, mp3, ogg): a Blob of JSON (`json`, `verbose_json`) or text (`text`, `srt`, `vtt`).
   *
   * @example
   * const answer = JSON.parse(await (await client.audio.transcriptions({ file: recording, model: 'whisper-1' })).text());
   */
  transcriptions(params: TranscriptionParams, options?: RequestOptions): Promise<Blob> {
    const form = new FormData();
    for (const [key, value] of Object.entries(params)) {
      if (key === 'file' || value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
    }
    form.append('file', params.file, params.file instanceof File ? params.file.name : 'audio.wav');
    return this.http.call<Routes['transcriptions']>({ method: 'POST', path: '/v1/audio/transcriptions' }, { body: form as never }, options);
  }
}
