import type { Hono } from 'hono';
import { NotFoundError } from '../../../errors/api-error.js';
import { CHAT_AUDIO_PATH } from '../../../contract/wire.js';
import type { ChatAudioStore } from '../../engines/llm/index.js';

/** The ids `ChatAudioStore` hands out: 16 random bytes in base64url. */
const AUDIO_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * `GET /v1/chat/audio/{id}`: the speech of a chat completion (`service_ext.voice.audio_url`). A service
 * extension outside the contract: the random id is the credential (like a signed URL), so no API key or
 * usage token is needed and an `<audio src>` can play it; 404 once expired. Documented in the OpenAPI
 * description (`x-chat-audio`).
 *
 * @example
 * registerChatAudioRoute(app, services.chatAudio);
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function registerChatAudioRoute(app: Hono<any>, audio: Pick<ChatAudioStore, 'load'>): void {
  app.get(`${CHAT_AUDIO_PATH}/:id`, async (context) => {
    const id = context.req.param('id');
    const found = AUDIO_ID.test(id) ? await audio.load(id) : undefined;
    if (!found) throw new NotFoundError('No such audio (it may have expired)');
    return context.body(found.audio as Uint8Array<ArrayBuffer>, 200, {
      'content-type': found.contentType,
      'content-length': String(found.audio.byteLength),
      // Immutable until it expires; private because the URL is the credential.
      'cache-control': `private, max-age=${Math.max(0, found.expiresAt - Math.floor(Date.now() / 1000))}`,
    });
  });
}
