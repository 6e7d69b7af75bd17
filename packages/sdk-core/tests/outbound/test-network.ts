import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressKind, type OutboundConnect, type OutboundResolve, type OutboundTarget } from '../../src/server/kernel/outbound/index.js';

/** A public address the tests hand out as a DNS answer; nothing ever connects to it (see {@link loopbackOnlyNetwork}). */
export const PUBLIC_ADDRESS = '93.184.216.34';

/** The host name the rebinding resolver answers for. */
export const REBINDING_HOST = 'rebind.test';

/** A resolver that records its answers: `answers[n]` is what the (n+1)th lookup got. */
export interface RecordingResolver {
  resolve: OutboundResolve;
  readonly answers: string[];
}

/**
 * DNS rebinding: {@link REBINDING_HOST} answers a public address to the first lookup (what a check sees) and
 * 127.0.0.1 to every later one (what a second lookup, a connection's, would see). Other names do not resolve.
 */
export function rebindingResolver(): RecordingResolver {
  const answers: string[] = [];
  return {
    answers,
    resolve: async (hostname) => {
      if (hostname !== REBINDING_HOST) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      const address = answers.length === 0 ? PUBLIC_ADDRESS : '127.0.0.1';
      answers.push(address);
      return [{ address, family: 4 }];
    },
  };
}

/** A resolver answering `addresses` for every name, recording each lookup. */
export function fixedResolver(...addresses: string[]): RecordingResolver {
  const answers: string[] = [];
  return {
    answers,
    resolve: async () => {
      answers.push(addresses.join(','));
      return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}

/**
 * The tests' network: it reaches loopback only. A connection to any other address is recorded and fails at
 * once with ENETUNREACH, so no test ever sends a packet off this machine.
 */
export function loopbackOnlyNetwork(): { connect: OutboundConnect; readonly attempts: OutboundTarget[] } {
  const attempts: OutboundTarget[] = [];
  return {
    attempts,
    connect: (target, open) => {
      attempts.push(target);
      if (target.addresses.every(({ address }) => addressKind(address) === 'loopback')) return open();
      const to = target.addresses.map(({ address }) => address).join(', ');
      throw Object.assign(new Error(`connect ENETUNREACH ${to}:${target.port} (the test network reaches loopback only)`), { code: 'ENETUNREACH' });
    },
  };
}

/** An HTTP server on 127.0.0.1 that counts the connections it accepted. */
export interface CountingServer {
  readonly port: number;
  readonly accepted: number;
  readonly requests: number;
  close(): Promise<void>;
}

/** Starts a {@link CountingServer} answering every request with `answer` (default: 200 `{"ok":true}`). */
export async function startCountingServer(answer?: (request: IncomingMessage, response: ServerResponse) => void): Promise<CountingServer> {
  let accepted = 0;
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => {
      if (answer) answer(request, response);
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.on('connection', () => (accepted += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
