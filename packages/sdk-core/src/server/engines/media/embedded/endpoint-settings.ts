import { ServerInfo, ServerInfo_Edition } from '@livekit/protocol';
import type { IceNetworkSettings } from './ice-network.js';

/** Tunables of the embedded endpoint (tests shorten the timeouts). */
export interface EndpointSettings {
  apiKey: string;
  apiSecret: string;
  /** Reported to clients; must be non-empty or livekit-client refuses the server. */
  serverVersion: string;
  pingIntervalSeconds: number;
  /** No ping for this long removes the participant; also the resume grace after a dropped socket. */
  pingTimeoutSeconds: number;
  /** Let a valid token create its room on join (LiveKit's `room.auto_create`). */
  autoCreateRooms: boolean;
  /** Where the WebRTC sockets listen and the address their candidates announce (LiveKit's `rtc.node_ip`, port range). */
  network?: IceNetworkSettings | undefined;
}

export const defaultEndpointSettings: Omit<EndpointSettings, 'apiKey' | 'apiSecret'> = {
  serverVersion: '1.9.0',
  pingIntervalSeconds: 5,
  pingTimeoutSeconds: 15,
  autoCreateRooms: true,
};

export function serverInfo(settings: EndpointSettings): ServerInfo {
  return new ServerInfo({
    edition: ServerInfo_Edition.Standard,
    version: settings.serverVersion,
    protocol: 16,
    region: 'embedded',
    nodeId: 'palaver-embedded',
  });
}
