import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { RealtimeSessionConfig } from '../../../contract/realtime.js';
import { ApiError } from '../../../errors/api-error.js';
import type { AgentSessionHandle, AgentStopReason } from '../../kernel/ports/agent-session-host.js';
import type { EventBus } from '../../kernel/event-bus.js';

/** What the session service asks of a running agent. */
export type AgentCommand =
  | { command: 'speak'; text: string }
  | { command: 'update'; config: RealtimeSessionConfig }
  | { command: 'stop'; reason: AgentStopReason };

interface CommandRequest {
  request: AgentCommand;
  /** Channel the hosting instance answers on. */
  reply: string;
}

type CommandReply = { ok: true } | { ok: false; status: number; type: string; message: string };

/** 503: no instance hosting the session's agent answered, or the agent failed to carry out the command. */
export class AgentUnavailableError extends ApiError {
  constructor(message: string, cause?: unknown) {
    super({ status: 503, type: 'service_unavailable', message, cause });
  }
}

export interface AgentControlOptions {
  /** How long a command sent to another instance waits for its answer (default 10 s). */
  replyTimeoutMs?: number;
}

/** The bus channel carrying commands for one session's agent. */
export function agentChannel(sessionId: string): string {
  return `realtime.session.${sessionId}`;
}

/**
 * Reaches the agent of a session wherever it runs. The instance that started the agent keeps its handle
 * and subscribes to the session's bus channel; any instance (the one an API call landed on) runs a command
 * directly when it hosts the agent, and otherwise publishes it on that channel and waits for the hosting
 * instance's answer. With the in-process bus there is one instance and every command is local.
 *
 * @example
 * await control.host(handle, project);               // on the instance that started the agent
 * await control.send(session.id, { command: 'speak', text: 'One moment.' }); // from any instance
 */
export class AgentControl {
  private readonly hosted = new Map<string, { handle: AgentSessionHandle; project: string; unsubscribe: () => Promise<void> }>();
  private readonly replyTimeoutMs: number;

  constructor(
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: AgentControlOptions = {},
  ) {
    this.replyTimeoutMs = options.replyTimeoutMs ?? 10_000;
  }

  /** Whether this instance runs the session's agent. */
  hosts(sessionId: string): boolean {
    return this.hosted.has(sessionId);
  }

  /** The sessions whose agent runs on this instance. */
  hostedSessions(): Array<{ sessionId: string; project: string }> {
    return [...this.hosted.entries()].map(([sessionId, entry]) => ({ sessionId, project: entry.project }));
  }

  /** Keeps a handle of an agent this instance started and answers commands for it from other instances. */
  async host(handle: AgentSessionHandle, project: string): Promise<void> {
    const unsubscribe = await this.bus.subscribe(agentChannel(handle.sessionId), (message) => this.answer(handle.sessionId, message));
    this.hosted.set(handle.sessionId, { handle, project, unsubscribe });
  }

  /** Forgets a handle (its agent stopped). */
  async release(sessionId: string): Promise<void> {
    const entry = this.hosted.get(sessionId);
    if (!entry) return;
    this.hosted.delete(sessionId);
    await entry.unsubscribe();
  }

  /**
   * Carries out `command` on the session's agent. Resolves once it was applied; rejects with an
   * {@link ApiError} when the agent failed, or {@link AgentUnavailableError} when no instance answered.
   * A stop also releases the handle.
   */
  async send(sessionId: string, command: AgentCommand): Promise<void> {
    const local = this.hosted.get(sessionId);
    if (local) {
      try {
        await this.run(local.handle, command);
      } catch (error) {
        throw this.failure(sessionId, command, error);
      }
      return;
    }
    await this.request(sessionId, command);
  }

  private async run(handle: AgentSessionHandle, command: AgentCommand): Promise<void> {
    switch (command.command) {
      case 'speak':
        await handle.speak(command.text);
        return;
      case 'update':
        handle.update(command.config);
        return;
      case 'stop':
        try {
          await handle.stop(command.reason);
        } finally {
          await this.release(handle.sessionId);
        }
    }
  }

  private failure(sessionId: string, command: AgentCommand, error: unknown): ApiError {
    if (ApiError.isInstance(error)) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new AgentUnavailableError(`the agent of realtime session '${sessionId}' failed to ${command.command}: ${reason}`, error);
  }

  /** Runs a command received over the bus and answers on its reply channel. */
  private async answer(sessionId: string, message: unknown): Promise<void> {
    const request = message as CommandRequest;
    const local = this.hosted.get(sessionId);
    if (!local || typeof request?.reply !== 'string') return;
    let reply: CommandReply = { ok: true };
    try {
      await this.run(local.handle, request.request);
    } catch (error) {
      const failure = this.failure(sessionId, request.request, error);
      reply = { ok: false, status: failure.status, type: failure.type, message: failure.message };
    }
    await this.bus.publish(request.reply, reply);
  }

  private async request(sessionId: string, command: AgentCommand): Promise<void> {
    const replyChannel = `realtime.reply.${randomUUID()}`;
    let settle: (reply: CommandReply) => void = () => {};
    const answered = new Promise<CommandReply>((resolve) => {
      settle = resolve;
    });
    const unsubscribe = await this.bus.subscribe(replyChannel, (message) => settle(message as CommandReply));
    let timer: NodeJS.Timeout | undefined;
    try {
      const receivers = await this.bus.publish(agentChannel(sessionId), { request: command, reply: replyChannel } satisfies CommandRequest);
      // Nobody subscribes to the session's channel: its instance is gone (a killed instance's subscriptions end
      // with its connection). No point waiting for an answer.
      if (receivers === 0) throw new AgentUnavailableError(`no server instance hosts the agent of realtime session '${sessionId}' (its instance stopped)`);
      const timedOut = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), this.replyTimeoutMs);
      });
      const reply = await Promise.race([answered, timedOut]);
      if (reply === undefined) {
        this.logger.warn({ session: sessionId, command: command.command }, 'no instance answered for the agent of a realtime session');
        throw new AgentUnavailableError(
          `the agent of realtime session '${sessionId}' did not answer within ${this.replyTimeoutMs} ms (its server instance may have stopped)`,
        );
      }
      if (!reply.ok) throw new ApiError({ status: reply.status, type: reply.type, message: reply.message });
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  }

  /** Releases every bus subscription (server shutdown; the agents themselves are stopped by their host). */
  async close(): Promise<void> {
    await Promise.all([...this.hosted.keys()].map((sessionId) => this.release(sessionId)));
  }
}
