import { ChatCompletionResponse, type chatRoutes } from '../../../../contract/chat.js';
import type { GroupHandlers } from '../handler.js';
import { chatEventStream } from '../chat-sse.js';

export const chatHandlers: GroupHandlers<typeof chatRoutes> = {
  create: async ({ body }, { services, principal, request, requestId, signal }) => {
    // One controller for the whole completion: the client going away (its signal, or the response
    // stream being cancelled) aborts the upstream request.
    const controller = new AbortController();
    const abort = () => controller.abort(new Error('the client disconnected'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    // Speech output links are absolute: the configured public URL, else the origin the client called.
    const audioBaseUrl = (services.config.publicUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
    const options = { signal: controller.signal, audioBaseUrl };
    if (body.stream) {
      const events = await services.chat.stream(principal, body, options);
      return chatEventStream(events, abort, { 'x-request-id': requestId });
    }
    try {
      const completion = await services.chat.complete(principal, body, options);
      return Response.json(ChatCompletionResponse.parse(completion), { headers: { 'x-request-id': requestId } });
    } finally {
      signal.removeEventListener('abort', abort);
    }
  },
};
