import type { ContextMessageCreateParams } from '../../../contract/contexts.js';
import type { RealtimeSession, RealtimeSessionConfig } from '../../../contract/realtime.js';
import type { Principal } from '../principal.js';

/**
 * The seam between the realtime session service (`services/realtime/`: REST semantics, persistence,
 * webhooks) and the voice agent runtime (`agent/`: joins the room, listens, thinks, speaks). The service
 * decides *whether* a session runs; the host runs it. Neither knows the other's internals.
 */

/**
 * Why a running agent stopped: `ended` by the API, its own limits, the human leaving, a failure, the server
 * shutting down (`server_shutdown`), or its host lost (`host_lost`: the instance stopped renewing its lease).
 */
export type AgentStopReason = 'ended' | 'time_limit_exceeded' | 'usage_limit_exceeded' | 'human_left' | 'failed' | 'server_shutdown' | 'host_lost';

/** What the host needs to run one session's agent. */
export interface AgentSessionSpec {
  /** The session as stored, with its resolved configuration (LLM, voice, persona, scenario, context, tools). */
  session: RealtimeSession;
  /** Whose session it is: the agent's LLM calls, speech and usage are made as this principal. */
  principal: Principal;
  /** The room identity the human joins with (from their join token). */
  humanIdentity: string;
}

/** Called by the agent; implemented by the session service. Each returns once the effect is durable. */
export interface AgentSessionEvents {
  /**
   * A finished utterance (human or agent) or tool exchange to keep: the service appends it to the session's
   * context when `save_messages` is on and emits `realtime_session.message_committed`.
   */
  messageCommitted(message: ContextMessageCreateParams): Promise<void>;
  /** The agent stopped by itself (time limit, usage limit, the human left for good, a failure). */
  stopped(reason: AgentStopReason, detail?: string): Promise<void>;
}

/** One running agent, as the service controls it. */
export interface AgentSessionHandle {
  readonly sessionId: string;
  /** Says `text` now (`POST /v1/realtime/{session}/speak`), after what is being said. */
  speak(text: string): Promise<void>;
  /** Applies a changed configuration (`POST /v1/realtime/{session}/update`) from the next turn on. */
  update(config: RealtimeSessionConfig): void;
  /** Stops the agent and leaves the room (`POST /v1/realtime/{session}/end`); resolves once it left. */
  stop(reason?: AgentStopReason): Promise<void>;
}

/** Runs agents; the embedded server has one in process (`createVoiceAgentHost`). */
export interface AgentSessionHost {
  /** Starts the session's agent; resolves once it joined the room and is warming up. */
  start(spec: AgentSessionSpec, events: AgentSessionEvents): Promise<AgentSessionHandle>;
  /** Stops every agent (server shutdown). */
  close(): Promise<void>;
}
