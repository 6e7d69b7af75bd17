import type { BrowserContext } from '@playwright/test';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { startUdpRelay, type UdpRelay } from '@palaver/sdk-core/testing';

/** A platform server whose WebRTC transport is reached only through a loopback UDP relay that can cut it. */
export interface CuttableServer {
  server: PalaverServer;
  relay: UdpRelay;
  close: () => Promise<void>;
}

/**
 * Starts the testing kit's UDP relay and a platform server announcing it (PALAVER_MEDIA_NODE_IP = the relay's
 * address, sockets on 127.0.0.1 in the relay's port range): every WebRTC datagram of a client crosses the relay.
 *
 * @example
 * const { server, relay, close } = await startCuttableServer();
 */
export async function startCuttableServer(logLevel: 'debug' | 'info' | 'warn' | 'silent' = 'warn'): Promise<CuttableServer> {
  const relay = await startUdpRelay();
  const server = await createServer({
    env: {},
    config: { logLevel, livekit: { nodeIp: relay.address, rtcBindAddress: '127.0.0.1', rtcPorts: relay.portRange } },
  });
  await server.listen(0, '127.0.0.1');
  return {
    server,
    relay,
    close: async () => {
      await server.close();
      await relay.close();
    },
  };
}

/**
 * What a laptop asleep or a lost Wi-Fi does to a page: its WebRTC datagrams dropped (the relay) and its HTTP and
 * websockets failing (Chromium's offline mode) at once. Returns the restore, which brings both back.
 */
export async function cutNetwork(relay: UdpRelay, context: BrowserContext): Promise<() => Promise<void>> {
  relay.cut();
  await context.setOffline(true);
  return async () => {
    relay.restore();
    await context.setOffline(false);
  };
}
