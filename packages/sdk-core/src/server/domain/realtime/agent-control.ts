import type { Logger } from 'pino';
import type { RealtimeSessionConfig } from '../../../contract/realtime.js';
import type { AgentSessionHandle, AgentStopReason } from '../../kernel/ports/agent-session-host.js';
import type { EventBus } from '../../kernel/event-bus.js';
import { HostUnavailableError, HostedControl, type HostedControlOptions } from '../hosted-control.js';

/** What the session service asks of a running agent. */
export type AgentCommand =
  { command: 'speak'; text: string } | { command: 'update'; config: RealtimeSessionConfig } | { command: 'stop'; reason: AgentStopReason };

/** 503: no instance hosting the session's agent answered, or the agent failed to carry out the command. */
export const AgentUnavailableError = HostUnavailableError;

export type AgentControlOptions = HostedControlOptions;

/**
 * Reaches the agent of a session wherever it runs (see {@link HostedControl}): speak, update and stop; a
 * stop also releases the handle.
 *
 * @example
 * await control.host(handle, project);               // on the instance that started the agent
 * await control.send(session.id, { command: 'speak', text: 'One moment.' }); // from any instance
 */
export class AgentControl {
  private readonly control: HostedControl<AgentSessionHandle, AgentCommand>;

  constructor(bus: EventBus, logger: Logger, options: AgentControlOptions = {}) {
    this.control = new HostedControl(
      bus,
      logger,
      {
        channel: 'realtime.session',
        describe: (id) => `the agent of realtime session '${id}'`,
        execute: async (handle, command, id) => {
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
                await this.control.release(id);
              }
          }
        },
      },
      options,
    );
  }

  hosts(sessionId: string): boolean {
    return this.control.hosts(sessionId);
  }

  hostedSessions(): Array<{ sessionId: string; project: string }> {
    return this.control.hostedIds().map(({ id, project }) => ({ sessionId: id, project }));
  }

  host(handle: AgentSessionHandle, project: string): Promise<void> {
    return this.control.host(handle.sessionId, handle, project);
  }

  release(sessionId: string): Promise<void> {
    return this.control.release(sessionId);
  }

  send(sessionId: string, command: AgentCommand): Promise<void> {
    return this.control.send(sessionId, command);
  }

  close(): Promise<void> {
    return this.control.close();
  }
}
