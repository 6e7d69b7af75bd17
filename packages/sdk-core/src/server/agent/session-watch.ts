import type { Logger } from 'pino';
import type { AgentSessionSpec, AgentStopReason } from '../kernel/ports/agent-session-host.js';
import type { ConversationMeter } from '../kernel/ports/conversation-meter.js';
import { ConversationTime } from './conversation-time.js';
import { HumanPresence } from './human-presence.js';
import { SessionCountdown } from './session-countdown.js';
// Whether a phone participant is there yet is part of the human's presence.
export { answered, onPresence } from './phone-participant.js';

export interface SessionWatchOptions {
  spec: Pick<AgentSessionSpec, 'principal' | 'session'>;
  tuning: { humanJoinTimeoutMs: number; humanLeftGraceMs: number; conversationCheckMs?: number | undefined };
  /** `conversational_seconds` of the human: checked against their limit while they are in the room, recorded at the end. */
  conversation: ConversationMeter | undefined;
  logger: Logger;
  /** The seconds left, every second (the agent's metadata). */
  tick?(seconds: number | null): void;
  /** Tells the human why the session ends (the `error` topic). */
  tell(message: string): void;
  /** The session must end: the human left or never came, the time limit, their usage limit. */
  end(reason: AgentStopReason, detail: string): void;
}

/**
 * What every agent of a realtime session keeps an eye on, whoever runs it (the built-in agent, a LiveKit Agents
 * worker): the human's presence (`human_left` after a grace period, or when they never join), the session's time
 * limit (`time_limit_exceeded`), and the human's `conversational_seconds` (counted while they are in the room,
 * `usage_limit_exceeded` at their limit, recorded once when the session ends).
 *
 * @example
 * const watch = new SessionWatch({ spec, tuning, conversation, logger, tell, end: (reason, detail) => stopByItself(reason, detail) });
 * watch.start(config.general.time_limit_s, humanInRoom);
 * await watch.finish('ended');
 */
export class SessionWatch {
  private readonly presence: HumanPresence;
  private readonly time: ConversationTime;
  private readonly countdown: SessionCountdown;

  constructor(options: SessionWatchOptions) {
    const { tuning } = options;
    this.presence = new HumanPresence({ joinTimeoutMs: tuning.humanJoinTimeoutMs, leftGraceMs: tuning.humanLeftGraceMs }, (detail) =>
      options.end('human_left', detail),
    );
    this.time = new ConversationTime(options.conversation, options.spec.principal, options.spec.session.id, {
      checkMs: tuning.conversationCheckMs ?? 2000,
      exceeded: (message) => {
        options.tell('The usage limit (conversational_seconds) is reached: the session ends.');
        options.end('usage_limit_exceeded', message);
      },
      logger: options.logger,
    });
    this.countdown = new SessionCountdown({
      tick: (seconds) => options.tick?.(seconds),
      expired: () => options.end('time_limit_exceeded', 'the session time limit was reached'),
    });
  }

  /** Starts the clocks; a human not in the room yet must join in time. */
  start(limitSeconds: number | null, humanInRoom: boolean): void {
    this.countdown.start(limitSeconds);
    this.time.start();
    if (!humanInRoom) this.presence.expectJoin();
  }

  setLimit(limitSeconds: number | null): void {
    this.countdown.setLimit(limitSeconds);
  }

  joined(): void {
    this.presence.joined();
    this.time.joined();
  }

  /** The human left (`forGood`: a phone caller hung up, no grace to come back). */
  left(forGood = false): void {
    this.presence.left(forGood);
    this.time.left();
  }

  /** Stops every clock at once; resolves when the human's seconds are recorded (once). */
  finish(reason: AgentStopReason): Promise<void> {
    const recording = this.time.finish(reason);
    this.countdown.stop();
    this.presence.stop();
    return recording;
  }
}
