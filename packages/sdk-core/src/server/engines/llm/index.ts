// The LLM gateway engine's public face: code outside engines/llm imports the gateway only from here
// (tests/architecture/engine-faces.test.ts).
export { ChatAudioStore } from './chat-audio-store.js';
export type { ChatGateway, ChatStreamEvent } from './chat-gateway.js';
export { createChatGateway } from './create-chat-gateway.js';
export { createLocalChat, type LocalChatOptions } from './local-chat.js';
export { OFFLINE_MODEL_ID, OFFLINE_MODEL_NAME } from './offline-model.js';
export { createSpeechTranscriber } from './speech-transcriber.js';
export { estimateTokens } from './token-count.js';
