import type { Logger } from 'pino';
import type { ToolDefinition } from '../../../contract/tools.js';
import type { AgentRoomConnection } from '../../engines/media/index.js';
import type { OutboundPolicy } from '../../kernel/outbound/index.js';
import type { Speech } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import type { TurnMetrics } from '../../kernel/ports/turn-metrics.js';
import type { AgentChat, AgentToolTuning, AgentVoices, ClientToolCalls, TurnDetectionOptions, VoiceTurns } from '../../voice/index.js';
import type { RunLogEntry } from './run-log.js';

/** The project's tool definitions, as a graph's ToolGroup nodes find them. */
export interface GraphToolLookup {
  /** Definitions by id or name, in the order asked; unknown references are left out. */
  find(principal: Principal, references: readonly string[]): Promise<ToolDefinition[]>;
}

/**
 * The engines a graph's nodes share with the voice agent: the LLM gateway, speech, voices, tools. Built
 * once by the composition root.
 */
export interface GraphEngines {
  chat: AgentChat;
  speech: Pick<Speech, 'tts' | 'stt' | 'vad'>;
  voices?: AgentVoices | undefined;
  tools?: GraphToolLookup | undefined;
  toolAddressPolicy?: OutboundPolicy | undefined;
  /**
   * MCP servers the operator names (MCP nodes whose `mcp_server` is a name): a streamable-HTTP server by URL
   * (still through `toolAddressPolicy`), or a program spoken to over stdio. Only this list can make the platform
   * start a program; a graph gives names, never commands.
   */
  mcpServers?: Readonly<Record<string, McpServerConfig>> | undefined;
  /**
   * Where LocalLLM, LocalSTT and LocalViseme nodes connect: `url` (scheme and host) with the node's `port`, one of
   * `ports`. Absent: `http://127.0.0.1` and the engine's ports (7002, 7004) and Ollama's (11434).
   */
  localServers?: LocalServers | undefined;
  toolTuning?: Partial<AgentToolTuning> | undefined;
  /** LLM used by OpenAICompatibleLLM nodes whose `model` is empty (default `builtin-offline`). */
  defaultModel?: string | undefined;
  /** The server's turn detection, under an STT node's `turn_detection` (default `DEFAULT_TURN_DETECTION`). */
  turnDetection?: TurnDetectionOptions | undefined;
  /** Every voice turn's measurements (the server's metrics), as the built-in agent reports them. */
  onTurnMetrics?: ((metrics: TurnMetrics) => void) | undefined;
}

/** What the nodes of one run see: who runs it, where, with which engines, and where to log. */
export interface GraphRunEnvironment {
  readonly runId: string;
  /** The run's LLM calls, speech and usage are made as this principal (the run's human). */
  readonly principal: Principal;
  readonly engines: GraphEngines;
  readonly logger: Logger;
  /** The run's room (absent when a graph runs without media, e.g. in unit tests). */
  readonly room: AgentRoomConnection | undefined;
  /** Client tool calls over the room's `tool_call` topic (absent without a room). */
  readonly clientTools: ClientToolCalls | undefined;
  readonly publisherMetadata: Record<string, unknown> | undefined;
  /** The run's spoken turns across its STT, LLM and TTS nodes: preemption signals and turn metrics. */
  readonly voiceTurns: VoiceTurns;
  /** Records a log entry: the run's `logs` events and the server log. */
  log(entry: RunLogEntry): void;
  /** A node failed: the run tells the humans in the room (its `error` topic) and keeps going. */
  nodeFailed(node: { id: string; type: string; subgraph: string | undefined }, error: Error): void;
}

/** The operator's local inference host and the ports graphs may use on it. */
export interface LocalServers {
  url: string;
  ports: readonly number[];
}

/** An MCP server of the operator's configuration: see `GraphEngines.mcpServers`. */
export type McpServerConfig =
  { url: string; headers?: Record<string, string> } | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string };
