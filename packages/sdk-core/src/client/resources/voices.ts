import type { RouteInput, RouteOutput } from '../../contract/define-route.js';
import type { voiceRoutes } from '../../contract/voices.js';
import type { RequestOptions } from '../http-client.js';
import type { PagePromise } from '../page-promise.js';
import { Resource } from '../resource.js';

type Routes = typeof voiceRoutes;
export type Voice = RouteOutput<Routes['retrieve']>;

/** What `clone` uploads: the recording may be any Blob (a File keeps its name). */
export type CloneVoiceParams = Omit<RouteInput<Routes['clone']>['body'], 'file'> & { file: Blob };

/** Voices: the built-in catalog and the project's own (cloned) voices, plus speech synthesis. */
export class Voices extends Resource {
  /** @example const voice = await client.voices.retrieve('flite-slt') */
  retrieve(voiceId: string, options?: RequestOptions): Promise<Voice> {
    return this.http.call<Routes['retrieve']>({ method: 'GET', path: '/v1/voice/{voice_id}' }, { params: { voice_id: voiceId } }, options);
  }

  /**
   * Voices, built-in first; `tags` keeps only voices that carry every given tag.
   *
   * @example
   * const female = await client.voices.list({ tags: ['gender:female', 'engine:flite'] });
   */
  list(query: RouteInput<Routes['list']>['query'] = {}, options?: RequestOptions): PagePromise<Voice> {
    return this.http.list<Routes['list']>({ method: 'GET', path: '/v1/voice/list' }, { query }, options);
  }

  /** Renames, relabels or retags a project voice (built-in voices are read-only). */
  update(voiceId: string, body: RouteInput<Routes['update']>['body'], options?: RequestOptions): Promise<Voice> {
    return this.http.call<Routes['update']>({ method: 'PUT', path: '/v1/voice/{voice_id}' }, { params: { voice_id: voiceId }, body }, options);
  }

  delete(voiceId: string, options?: RequestOptions): Promise<RouteOutput<Routes['delete']>> {
    return this.http.call<Routes['delete']>({ method: 'DELETE', path: '/v1/voice/{voice_id}' }, { params: { voice_id: voiceId } }, options);
  }

  /**
   * Synthesises `text`; resolves with the audio (`audio/mpeg` or `audio/wav`).
   *
   * @example
   * const audio = await client.voices.generate({ text: 'Hello there', voice_id: 'flite-slt' });
   */
  generate(body: RouteInput<Routes['generate']>['body'], options?: RequestOptions): Promise<Blob> {
    return this.http.call<Routes['generate']>({ method: 'POST', path: '/v1/voice/generate' }, { body }, options);
  }

  /**
   * Creates a project voice from a recording (multipart upload).
   *
   * @example
   * const voice = await client.voices.clone({ name: 'Narrator', language: 'en', file: recording });
   */
  clone(params: CloneVoiceParams, options?: RequestOptions): Promise<Voice> {
    const form = new FormData();
    form.append('name', params.name);
    form.append('language', params.language);
    form.append('file', params.file, params.file instanceof File ? params.file.name : 'recording.mp3');
    return this.http.call<Routes['clone']>({ method: 'POST', path: '/v1/voice/clone' }, { body: form as never }, options);
  }
}
