import { ResponseObject } from '../../../../contract/responses-object.js';
import type { responseRoutes } from '../../../../contract/responses.js';
import type { GroupHandlers } from '../handler.js';
import { responseEventStream } from '../responses-sse.js';

export const responseHandlers: GroupHandlers<typeof responseRoutes> = {
  create: async ({ body }, { services, principal, requestId, signal }) => {
    // One controller for the whole response: the client going away aborts the model call.
    const controller = new AbortController();
    const abort = () => controller.abort(new Error('the client disconnected'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    if (body.stream) {
      const events = await services.responses.stream(principal, body, { signal: controller.signal });
      return responseEventStream(events, abort, { 'x-request-id': requestId });
    }
    try {
      const response = await services.responses.create(principal, body, { signal: controller.signal });
      return Response.json(ResponseObject.parse(response), { headers: { 'x-request-id': requestId } });
    } finally {
      signal.removeEventListener('abort', abort);
    }
  },
  retrieve: ({ params }, { services, principal }) => services.responses.retrieve(principal, params.response_id),
  delete: async ({ params }, { services, principal }) => {
    await services.responses.delete(principal, params.response_id);
    return { id: params.response_id, object: 'response.deleted', deleted: true };
  },
  inputItems: ({ params, query }, { services, principal }) => services.responses.inputItems(principal, params.response_id, query),
};
