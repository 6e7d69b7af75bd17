import type { voiceRoutes } from '../../../../contract/voices.js';
import { negotiateAudioFormat } from '../../../engines/speech/index.js';
import type { GroupHandlers } from '../handler.js';

export const voiceHandlers: GroupHandlers<typeof voiceRoutes> = {
  clone: async ({ body }, { services, principal }) => services.voiceCloning.clone(principal, body),
  generate: async ({ body }, { services, principal, request, signal }) => {
    const format = negotiateAudioFormat(request.headers.get('accept'));
    const result = await services.voiceSynthesis.generate(principal, body, format, signal);
    return new Response(result.audio as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: {
        'content-type': result.contentType,
        'content-length': String(result.audio.byteLength),
        'x-audio-sample-rate': String(result.sampleRate),
        'x-audio-duration-seconds': result.durationSeconds.toFixed(3),
      },
    });
  },
  retrieve: async ({ params }, { services, principal }) => services.voices.retrieve(principal, params.voice_id),
  update: async ({ params, body }, { services, principal }) => services.voices.update(principal, params.voice_id, body),
  delete: async ({ params }, { services, principal }) => {
    await services.voices.delete(principal, params.voice_id);
    return { message: `voice '${params.voice_id}' deleted` };
  },
  list: async ({ query }, { services, principal }) => services.voices.list(principal, { page: query.page, pageSize: query.page_size, tags: query.tags }),
};
