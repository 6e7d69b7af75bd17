import type { Logger } from 'pino';
import { type AgentParticipantMetadata, type SDKAgentState } from '../../contract/sdk.js';
import type { AgentRoomConnection } from '../engines/media/index.js';
import { AGENT_STATE_ATTRIBUTE } from '../../contract/wire.js';

/** LiveKit's `lk.agent.state` values (the agent convention has no terminal states). */
export type LivekitAgentState = 'initializing' | 'listening' | 'thinking' | 'speaking';

/**
 * The attribute that goes with a state. The terminal states have no LiveKit counterpart; they map to
 * `listening`, since the agent no longer speaks or thinks and leaves the room soon after.
 */
export function livekitAgentState(state: SDKAgentState): LivekitAgentState {
  switch (state) {
    case 'warmup':
      return 'initializing';
    case 'thinking':
    case 'speaking':
    case 'listening':
      return state;
    default:
      return 'listening';
  }
}

/** The metadata JSON the agent participant carries (wire protocol). */
export function agentMetadata(state: SDKAgentState, remainingSeconds: number | null): string {
  const metadata: AgentParticipantMetadata = { agent_state: state, remaining_seconds: remainingSeconds };
  return JSON.stringify(metadata);
}

const TERMINAL_STATES: ReadonlySet<SDKAgentState> = new Set(['time_limit_exceeded', 'usage_limit_exceeded']);

/**
 * Keeps the agent participant's metadata (`agent_state`, `remaining_seconds`) and its `lk.agent.state`
 * attribute in step with the agent. Updates are sent in order, one at a time, and coalesced: a burst of
 * changes sends only the latest. Once a terminal state is set it stays.
 *
 * @example
 * const publisher = new AgentStatePublisher(connection, logger, { state: 'warmup', remainingSeconds: 60 });
 * publisher.setState('listening');
 */
export class AgentStatePublisher {
  private current: SDKAgentState;
  private remaining: number | null;
  private sentMetadata: string;
  private sentAttribute: LivekitAgentState;
  private flushing: Promise<void> | undefined;
  private dirty = false;
  private readonly listeners = new Set<(state: SDKAgentState) => void>();

  constructor(
    private readonly connection: Pick<AgentRoomConnection, 'setMetadata' | 'setAttributes'>,
    private readonly logger: Logger,
    initial: { state: SDKAgentState; remainingSeconds: number | null },
  ) {
    this.current = initial.state;
    this.remaining = initial.remainingSeconds;
    this.sentMetadata = agentMetadata(initial.state, initial.remainingSeconds);
    this.sentAttribute = livekitAgentState(initial.state);
  }

  get state(): SDKAgentState {
    return this.current;
  }

  get remainingSeconds(): number | null {
    return this.remaining;
  }

  get terminal(): boolean {
    return TERMINAL_STATES.has(this.current);
  }

  /** Calls `listener` on every state change (observability, tests). */
  onChange(listener: (state: SDKAgentState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setState(state: SDKAgentState): void {
    if (this.terminal || state === this.current) return;
    this.current = state;
    for (const listener of this.listeners) listener(state);
    this.schedule();
  }

  setRemainingSeconds(seconds: number | null): void {
    if (seconds === this.remaining) return;
    this.remaining = seconds;
    this.schedule();
  }

  /** Resolves once everything set so far has been sent. */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private schedule(): void {
    this.dirty = true;
    this.flushing ??= this.flush().finally(() => {
      this.flushing = undefined;
    });
  }

  private async flush(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      const metadata = agentMetadata(this.current, this.remaining);
      const attribute = livekitAgentState(this.current);
      try {
        if (metadata !== this.sentMetadata) {
          await this.connection.setMetadata(metadata);
          this.sentMetadata = metadata;
        }
        if (attribute !== this.sentAttribute) {
          await this.connection.setAttributes({ [AGENT_STATE_ATTRIBUTE]: attribute });
          this.sentAttribute = attribute;
        }
      } catch (error) {
        // The agent left the room (or is leaving): there is nobody to tell.
        this.logger.debug({ err: error }, 'could not publish the agent state');
        return;
      }
    }
  }
}
