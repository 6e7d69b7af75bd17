import type { voiceRoutes } from '../../../contract/voices.js';
import { NotImplementedError } from '../../../errors/api-error.js';
import type { GroupHandlers } from '../handler.js';

export const voiceHandlers: GroupHandlers<typeof voiceRoutes> = {
  clone: async () => {
    throw new NotImplementedError('POST /v1/voice/clone is not available on this server yet (arrives with the speech engine)');
  },
  generate: async () => {
    throw new NotImplementedError('POST /v1/voice/generate is not available on this server yet (arrives with the speech engine)');
  },
  retrieve: async ({ params }, { services, principal }) => services.voices.retrieve(principal, params.voice_id),
  update: async ({ params, body }, { services, principal }) => services.voices.update(principal, params.voice_id, body),
  delete: async ({ params }, { services, principal }) => {
    await services.voices.delete(principal, params.voice_id);
    return { message: `voice '${params.voice_id}' deleted` };
  },
  list: async ({ query }, { services, principal }) =>
    services.voices.list(principal, { page: query.page, pageSize: query.page_size, tags: query.tags }),
};
