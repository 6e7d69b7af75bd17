import type { Logger } from 'pino';
import type { AgentRoomConnection, AgentTransport, EnsureRoomOptions, JoinRoomOptions } from '../agent-transport.js';

export interface LivekitTransportOptions {
  url: string;
  apiKey: string;
  apiSecret: string;
  logger: Logger;
}

export class LivekitAgentTransport implements AgentTransport {
  readonly kind = 'livekit' as const;
  constructor(private readonly options: LivekitTransportOptions) {}
  async ensureRoom(_options: EnsureRoomOptions): Promise<void> {
    throw new Error('not implemented');
  }
  async deleteRoom(_room: string): Promise<void> {}
  async join(_options: JoinRoomOptions): Promise<AgentRoomConnection> {
    throw new Error(`not implemented ${this.options.url}`);
  }
  async close(): Promise<void> {}
}
