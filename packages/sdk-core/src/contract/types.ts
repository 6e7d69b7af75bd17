/** Public types of the contract (types only: importing them adds nothing to a bundle). */
export type { Persona, CreatePersonaRequest, UpdatePersonaRequest } from './personas.js';
export type { Usage, UsageType, UsageLimits } from './usage.js';
export type {
  Context,
  ContextCreateRequest,
  ContextMessage,
  ContextMessageContent,
  ContextMessageCreateParams,
  ContextMessageToolCall,
  ContextAdvancedMemoryNode,
  ContextAdvancedMemoryEdge,
  ContextAdvancedMemoryQueryResult,
} from './contexts.js';
export type { AnalyticsConversationMessage } from './analytics.js';
export type { Voice, VoiceTag, VoicePricing, UpdateVoiceRequest, GenerateVoiceRequest, CloneVoiceRequest } from './voices.js';
export type {
  TtsClientMessage,
  TtsServiceMessage,
  TtsStartSessionMessage,
  TtsPushTextMessage,
  TtsEndOfStreamMessage,
  TtsAudioMessage,
  TtsFinalMessage,
  TtsErrorMessage,
} from './tts-socket.js';
export type { RouteDefinition, RouteInput, RouteOutput, AuthClass, HttpMethod } from './define-route.js';
export type { BadRequest, ErrorType } from './common.js';
