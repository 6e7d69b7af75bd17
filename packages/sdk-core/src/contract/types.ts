/** Public types of the contract (types only: importing them adds nothing to a bundle). */
export type { Persona, CreatePersonaRequest, UpdatePersonaRequest } from './personas.js';
export type { Scenario, CreateScenarioRequest, UpdateScenarioRequest } from './scenarios.js';
export type { Llm, LlmCreateRequest, LlmHeader, LlmType } from './llms.js';
export type { ToolDefinition, ToolDefinitionParameter, ToolParameterType, ToolDestination, CreateToolDefinitionRequest } from './tools.js';
export type { Secret, CreateSecretRequest } from './secrets.js';
export type { Usage, UsageType, UsageLimits } from './usage.js';
export type { Credit, CreateCreditRequest, CreditLedgerEntry, CreateCreditLedgerEntryRequest } from './credits.js';
export type { WebhookMessage, WebhookEventType } from './webhooks.js';
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
export type { App, AppVersions, GraphInput, CreateAppRequest, UpdateAppRequest, PublishAppRequest } from './apps.js';
export type { ApplyAppTemplateRequest } from './app-templates.js';
export type { SubGraph, CreateSubGraphRequest, UpdateSubGraphRequest } from './subgraphs.js';
export type {
  AppRun,
  AppRunConnectionDetails,
  AppRunPadValue,
  AppRunNodePadValueParam,
  CreateAppRunRequest,
  CreateAppRunFromGraphRequest,
  CreateAppRunResponse,
  AppDebugRequest,
  AppDebugResponse,
} from './app-runs.js';
export type {
  RealtimeSession,
  RealtimeSessionState,
  RealtimeSessionData,
  RealtimeSessionConfig,
  RealtimeSessionConfigCreate,
  RealtimeSessionConfigUpdate,
  RealtimeSessionConnectionDetails,
  RealtimeSessionStartRequest,
  RealtimeSessionStartResponse,
  RealtimeSessionTurnDetection,
  RealtimeAgentChoice,
  RealtimeAgentChoices,
} from './realtime.js';
export type { PartnerAvatarSessionStartRequest } from './partner.js';
export type {
  SDKConnectionState,
  SDKAgentState,
  SDKSessionTranscription,
  SDKSendChatMessageParams,
  SDKConnectOptions,
  AgentParticipantMetadata,
  ToolCallMessage,
  RuntimeApiMessage,
  ClientToolCall,
  DataTopic,
  DataPacket,
} from './sdk.js';
export type {
  Session,
  SessionMessage,
  HistoryMessage,
  SessionTimelineItem,
  SessionStartRequest,
  SessionStartResponse,
  UpdateSessionRequest,
} from './sessions-legacy.js';
export type { RouteDefinition, RouteInput, RouteOutput, AuthClass, HttpMethod } from './define-route.js';
export type { BadRequest, ErrorType } from './common.js';
export type {
  ChatCompletionRequest,
  ChatCompletionRequestInput,
  ChatCompletionResponse,
  ChatCompletionChunk,
  ChatCompletionTool,
  ChatCompletionUsage,
  ChatMessage,
  ChatStreamError,
  ChatToolChoice,
  FinishReason,
} from './chat.js';
export type { GraphDocument, GraphNode, GraphPad, GraphPortal, PadKind, PadReference } from './graph/graph-document.js';
export type { PadConstraint, PadConstraints, PadDataType } from './graph/pad-constraints.js';
export type { ClientPadValue, GraphContextMessage, GraphToolCall, ContextMessageRoleName } from './graph/pad-values.js';
export type { NodeSpec, PadSpec, RepeatedPadsSpec, NodeCategory } from './graph/node-spec.js';
