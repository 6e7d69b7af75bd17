import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

/** A loopback UDP relay in front of the embedded endpoint's WebRTC sockets: the path a real network cut drops. */
export interface UdpRelay {
  /** The address clients reach: the endpoint's `nodeIp` (PALAVER_MEDIA_NODE_IP). */
  readonly address: string;
  /** The ports it listens on, the same the endpoint binds (PALAVER_MEDIA_RTC_PORTS), first and last included. */
  readonly portRange: [number, number];
  /** Drops every datagram, both ways, until `restore()`: a Wi-Fi loss or a laptop asleep, as WebRTC sees it. */
  cut(): void;
  restore(): void;
  /** Datagrams passed on and dropped so far, both ways; `flows`: client address and port pairs seen. */
  counts(): { forwarded: number; dropped: number; flows: number };
  close(): Promise<void>;
}

export interface UdpRelayOptions {
  /** Where clients send (announced as the endpoint's `nodeIp`); default 127.0.0.2, another loopback address. */
  address?: string;
  /** Where the endpoint's sockets are bound (its `rtcBindAddress`); default 127.0.0.1. */
  target?: string;
  /** How many ports (one per peer connection the endpoint has open at once); default 16. */
  ports?: number;
}

function bind(socket: Socket, address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, address, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

const closeSocket = (socket: Socket) => new Promise<void>((resolve) => socket.close(() => resolve()));

/** Binds `count` consecutive ports on `address` from a random base, trying other bases when one is taken. */
async function bindRange(address: string, count: number): Promise<Socket[]> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const base = 20_000 + Math.floor(Math.random() * (60_000 - 20_000 - count));
    const sockets: Socket[] = [];
    try {
      for (let port = base; port < base + count; port += 1) {
        const socket = createSocket('udp4');
        sockets.push(socket);
        await bind(socket, address, port);
      }
      return sockets;
    } catch {
      await Promise.all(sockets.map((socket) => closeSocket(socket).catch(() => undefined)));
    }
  }
  throw new Error(`udp relay: no ${count} free consecutive ports on ${address}`);
}

/**
 * Starts a UDP relay: each datagram a client sends to `address:port` goes on to `target:port` from a socket of its
 * own per client address (so the endpoint sees one peer per client), and the endpoint's answers come back to the
 * client from `address:port`. Start the server with `livekit: { nodeIp: relay.address, rtcBindAddress: target,
 * rtcPorts: relay.portRange }`: then every WebRTC packet crosses the relay, and `cut()` is a real network cut of the
 * media and data channels (Chromium's offline emulation only stops HTTP and websockets). Nothing outside this
 * process changes: no firewall rule, no traffic control.
 *
 * @example
 * const relay = await startUdpRelay();
 * const server = await createServer({ config: { livekit: { nodeIp: relay.address, rtcBindAddress: '127.0.0.1', rtcPorts: relay.portRange } } });
 * relay.cut(); await sleep(20_000); relay.restore();
 */
export async function startUdpRelay(options: UdpRelayOptions = {}): Promise<UdpRelay> {
  const address = options.address ?? '127.0.0.2';
  const target = options.target ?? '127.0.0.1';
  const fronts = await bindRange(address, options.ports ?? 16);
  const flows = new Map<string, Socket>();
  let isCut = false;
  let forwarded = 0;
  let dropped = 0;

  const flowFor = (front: Socket, client: RemoteInfo): Socket => {
    const key = `${front.address().port}|${client.address}:${client.port}`;
    let back = flows.get(key);
    if (back) return back;
    back = createSocket('udp4');
    back.bind(0, target);
    back.on('message', (message) => {
      if (isCut) dropped += 1;
      else {
        forwarded += 1;
        front.send(message, client.port, client.address);
      }
    });
    back.on('error', () => undefined);
    flows.set(key, back);
    return back;
  };

  for (const front of fronts) {
    const port = front.address().port;
    front.on('error', () => undefined);
    front.on('message', (message, client) => {
      const back = flowFor(front, client);
      if (isCut) dropped += 1;
      else {
        forwarded += 1;
        back.send(message, port, target);
      }
    });
  }
  const ports = fronts.map((front) => front.address().port);
  return {
    address,
    portRange: [ports[0]!, ports.at(-1)!],
    cut: () => {
      isCut = true;
    },
    restore: () => {
      isCut = false;
    },
    counts: () => ({ forwarded, dropped, flows: flows.size }),
    close: async () => {
      await Promise.all([...fronts, ...flows.values()].map((socket) => closeSocket(socket).catch(() => undefined)));
      flows.clear();
    },
  };
}
