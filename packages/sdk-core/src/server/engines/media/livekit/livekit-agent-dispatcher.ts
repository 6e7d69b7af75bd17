import type { AgentDispatcher, AgentDispatchOptions } from '../agent-dispatcher.js';

/**
 * Dispatch through a LiveKit deployment's AgentDispatchService (`livekit-server-sdk`'s AgentDispatchClient):
 * its workers register with LiveKit, which assigns the job. Whether a worker is registered cannot be asked.
 *
 * @example
 * const dispatcher = new LivekitAgentDispatcher({ url, apiKey, apiSecret });
 * const { id } = await dispatcher.dispatch({ room: 'rts_1', agentName: 'support' });
 */
export class LivekitAgentDispatcher implements AgentDispatcher {
  private client: Promise<import('livekit-server-sdk').AgentDispatchClient> | undefined;

  constructor(private readonly options: { url: string; apiKey: string; apiSecret: string }) {}

  async dispatch(options: AgentDispatchOptions): Promise<{ id: string }> {
    const client = await this.dispatchClient();
    const dispatch = await client.createDispatch(options.room, options.agentName, options.metadata !== undefined ? { metadata: options.metadata } : {});
    return { id: dispatch.id };
  }

  async cancel(room: string, dispatchId: string): Promise<void> {
    const client = await this.dispatchClient();
    await client.deleteDispatch(dispatchId, room);
  }

  hasWorker(): undefined {
    return undefined;
  }

  registeredAgents(): undefined {
    return undefined;
  }

  private dispatchClient(): Promise<import('livekit-server-sdk').AgentDispatchClient> {
    this.client ??= import('livekit-server-sdk').then(({ AgentDispatchClient }) => {
      const host = this.options.url.replace(/^ws/, 'http');
      return new AgentDispatchClient(host, this.options.apiKey, this.options.apiSecret);
    });
    return this.client;
  }
}
