/**
 * `@palaver/sdk-core/tts`: the streaming TTS socket client (browser and Node) and a WebAudio player.
 *
 * @example
 * import { createTtsClient, playTtsStream } from '@palaver/sdk-core/tts';
 * const tts = createTtsClient({ baseUrl: 'http://127.0.0.1:8080', usageToken });
 * const stream = tts.stream({ voice: 'flite-slt' });
 * playTtsStream(stream);
 * stream.push('Hello there.').end();
 */
export { createTtsClient, TtsClient } from './tts/tts-client.js';
export { TTS_SOCKET_PATH } from './contract/wire.js';
export type { TtsClientEvents, TtsClientOptions, TtsStreamOptions } from './tts/tts-client.js';
export { TtsStream, STREAM_BACKLOG_HIGH_WATER } from './tts/tts-stream.js';
export type { TtsAudioChunk, TtsStreamEvents, TtsStreamFailure } from './tts/tts-stream.js';
export { TtsStreamError } from './tts/tts-stream-error.js';
export { playTtsStream } from './tts/play-tts-stream.js';
export type { PlaybackContext, TtsPlayback } from './tts/play-tts-stream.js';
export { base64ToPcm16 } from './tts/pcm-base64.js';
export { AbortError, ConnectionError } from './errors/transport-errors.js';
