import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ApiError } from '../../errors/api-error.js';
import type { EventBus } from '../kernel/event-bus.js';

/** 503: no instance hosting the resource answered, or it failed to carry out the command. */
export class HostUnavailableError extends ApiError {
  constructor(message: string, cause?: unknown) {
    super({ status: 503, type: 'service_unavailable', message, cause });
  }
}

interface CommandRequest<Command> {
  request: Command;
  /** Channel the hosting instance answers on. */
  reply: string;
}

type CommandReply<Result> = { ok: true; result: Result } | { ok: false; status: number; type: string; message: string };

export interface HostedControlOptions {
  /** How long a command sent to another instance waits for its answer (default 10 s). */
  replyTimeoutMs?: number;
}

/** What a kind of hosted resource is, for the bus and for messages. */
export interface HostedKind<Handle, Command extends { command: string }, Result> {
  /** Bus channel prefix, e.g. `realtime.session` (the channel is `<prefix>.<id>`). */
  channel: string;
  /** How messages name one: `the agent of realtime session 'x'`. */
  describe(id: string): string;
  /** Carries out a command on a handle this instance holds. */
  execute(handle: Handle, command: Command, id: string): Promise<Result>;
}

/**
 * Reaches a resource wherever it runs (a session's agent, an app run). The instance that started it keeps
 * its handle and subscribes to its bus channel; any instance runs a command directly when it holds the
 * handle, and otherwise publishes it on that channel and waits for the holder's answer (results must be
 * JSON). With the in-process bus there is one instance and every command is local.
 *
 * @example
 * const control = new HostedControl(bus, logger, { channel: 'app.run', describe: (id) => `app run '${id}'`, execute: (run, command) => ... });
 * await control.host(run.id, handle, project);
 * await control.send(run.id, { command: 'push', ... }); // from any instance
 */
export class HostedControl<Handle, Command extends { command: string }, Result = void> {
  private readonly hosted = new Map<string, { handle: Handle; project: string; unsubscribe: () => Promise<void> }>();
  private readonly replyTimeoutMs: number;

  constructor(
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly kind: HostedKind<Handle, Command, Result>,
    options: HostedControlOptions = {},
  ) {
    this.replyTimeoutMs = options.replyTimeoutMs ?? 10_000;
  }

  private channelOf(id: string): string {
    return `${this.kind.channel}.${id}`;
  }

  /** Whether this instance holds the resource. */
  hosts(id: string): boolean {
    return this.hosted.has(id);
  }

  /** The handle of a resource this instance holds. */
  handle(id: string): Handle | undefined {
    return this.hosted.get(id)?.handle;
  }

  /** The resources this instance holds. */
  hostedIds(): Array<{ id: string; project: string }> {
    return [...this.hosted.entries()].map(([id, entry]) => ({ id, project: entry.project }));
  }

  /** Keeps the handle of a resource this instance started and answers commands for it from other instances. */
  async host(id: string, handle: Handle, project: string): Promise<void> {
    const unsubscribe = await this.bus.subscribe(this.channelOf(id), (message) => this.answer(id, message));
    this.hosted.set(id, { handle, project, unsubscribe });
  }

  /** Forgets a handle (the resource stopped). */
  async release(id: string): Promise<void> {
    const entry = this.hosted.get(id);
    if (!entry) return;
    this.hosted.delete(id);
    await entry.unsubscribe();
  }

  /**
   * Whether an instance holds the resource now: this one, or one subscribed to its channel (a probe that no
   * instance carries out; a killed instance's subscriptions ended with it, and the in-process bus has only this one).
   */
  async reachable(id: string): Promise<boolean> {
    if (this.hosted.has(id)) return true;
    return (await this.bus.publish(this.channelOf(id), { probe: true })) > 0;
  }

  /**
   * Carries out `command` wherever the resource runs. Rejects with an {@link ApiError} when it failed, or
   * {@link HostUnavailableError} when no instance answered.
   */
  async send(id: string, command: Command): Promise<Result> {
    const local = this.hosted.get(id);
    if (!local) return this.request(id, command);
    try {
      return await this.kind.execute(local.handle, command, id);
    } catch (error) {
      throw this.failure(id, command, error);
    }
  }

  private failure(id: string, command: Command, error: unknown): ApiError {
    if (ApiError.isInstance(error)) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new HostUnavailableError(`${this.kind.describe(id)} failed to ${command.command}: ${reason}`, error);
  }

  /** Runs a command received over the bus and answers on its reply channel. */
  private async answer(id: string, message: unknown): Promise<void> {
    const request = message as CommandRequest<Command>;
    const local = this.hosted.get(id);
    if (!local || typeof request?.reply !== 'string') return;
    let reply: CommandReply<Result>;
    try {
      reply = { ok: true, result: await this.kind.execute(local.handle, request.request, id) };
    } catch (error) {
      const failure = this.failure(id, request.request, error);
      reply = { ok: false, status: failure.status, type: failure.type, message: failure.message };
    }
    await this.bus.publish(request.reply, reply);
  }

  private async request(id: string, command: Command): Promise<Result> {
    const replyChannel = `${this.kind.channel}.reply.${randomUUID()}`;
    let settle: (reply: CommandReply<Result>) => void = () => {};
    const answered = new Promise<CommandReply<Result>>((resolve) => {
      settle = resolve;
    });
    const unsubscribe = await this.bus.subscribe(replyChannel, (message) => settle(message as CommandReply<Result>));
    let timer: NodeJS.Timeout | undefined;
    try {
      const receivers = await this.bus.publish(this.channelOf(id), { request: command, reply: replyChannel } satisfies CommandRequest<Command>);
      // Nobody subscribes to the channel: its instance is gone (a killed instance's subscriptions end with its
      // connection). No point waiting for an answer.
      if (receivers === 0) throw new HostUnavailableError(`no server instance hosts ${this.kind.describe(id)} (its instance stopped)`);
      const timedOut = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), this.replyTimeoutMs);
      });
      const reply = await Promise.race([answered, timedOut]);
      if (reply === undefined) {
        this.logger.warn({ target: id, command: command.command }, `no instance answered for ${this.kind.describe(id)}`);
        throw new HostUnavailableError(`${this.kind.describe(id)} did not answer within ${this.replyTimeoutMs} ms (its server instance may have stopped)`);
      }
      if (!reply.ok) throw new ApiError({ status: reply.status, type: reply.type, message: reply.message });
      return reply.result;
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  }

  /** Releases every bus subscription (server shutdown; the resources themselves are stopped by their host). */
  async close(): Promise<void> {
    await Promise.all([...this.hosted.keys()].map((id) => this.release(id)));
  }
}
