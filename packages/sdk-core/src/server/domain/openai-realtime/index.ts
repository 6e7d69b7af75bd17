/**
 * OpenAI's Realtime API (`/v1/realtime`, websocket) over the voice layer: one `RealtimeConversation` per socket
 * (decision 0113). The edge (`edge/openai-realtime/`) authenticates, reads events and writes them.
 */
export { RealtimeConversation, SESSION_LIFETIME_MS, type RealtimeConversationOptions } from './realtime-conversation.js';
export { RealtimeRequestError } from './realtime-errors.js';
export type { RealtimeAudioSink } from './realtime-response.js';
export { REALTIME_SAMPLE_RATE } from './pushed-audio-track.js';
export { realtimeId } from './realtime-ids.js';
