import type { Logger } from 'pino';
import type { AgentTransport } from '../engines/media/index.js';
import type { Speech } from '../engines/speech/index.js';
import type { OutboundPolicy } from '../kernel/outbound/index.js';
import type { ConversationMeter } from '../kernel/ports/conversation-meter.js';
import type { TurnMetrics } from '../kernel/ports/turn-metrics.js';
import type { AgentChat, AgentToolTuning, AgentVoices, TurnDetectionOptions } from '../voice/index.js';

/** Timing knobs; the defaults suit a person on a microphone. */
export interface VoiceAgentTuning {
  turnDetection: TurnDetectionOptions;
  /** How long the human may be gone before the agent stops with `human_left`. */
  humanLeftGraceMs: number;
  /** How long the agent waits for the human to join at all before it stops with `human_left`. */
  humanJoinTimeoutMs: number;
  /** How long the agent stays after a terminal state, so clients see it before the agent leaves. */
  terminalLingerMs: number;
  /** Sample rate of the agent's published track. */
  outputSampleRate: number;
  /** Tool call timeouts and rounds (defaults: `DEFAULT_AGENT_TOOL_TUNING`). */
  tools?: Partial<AgentToolTuning> | undefined;
  /** How often the human's `conversational_seconds` limit is checked while they are in the room (default 2 s). */
  conversationCheckMs?: number | undefined;
}

export interface VoiceAgentDependencies {
  transport: AgentTransport;
  speech: Pick<Speech, 'tts' | 'stt' | 'vad'>;
  chat: AgentChat;
  voices?: AgentVoices | undefined;
  /** `conversational_seconds` of the human's time in the room: checked against their limit, recorded at the end. */
  conversation?: ConversationMeter | undefined;
  logger: Logger;
  tuning: VoiceAgentTuning;
  /** Where `web_request` tools may point (default: public addresses only). */
  toolAddressPolicy?: OutboundPolicy | undefined;
  /** Called after every turn with what it measured. */
  onTurnMetrics?: ((metrics: TurnMetrics) => void) | undefined;
}
