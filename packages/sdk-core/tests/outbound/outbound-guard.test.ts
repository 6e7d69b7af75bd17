import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundGuard, outboundGuard, OutboundRefusedError, outboundRequest, type OutboundPolicy } from '../../src/server/kernel/outbound/index.js';
import {
  fixedResolver,
  loopbackOnlyNetwork,
  PUBLIC_ADDRESS,
  REBINDING_HOST,
  rebindingResolver,
  startCountingServer,
  type CountingServer,
} from './test-network.js';

const strict = { allowLoopback: false, allowPrivateNetworks: false };
const development = { allowLoopback: true, allowPrivateNetworks: false };

describe('the outbound guard judges the address the socket connects to', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function server(...args: Parameters<typeof startCountingServer>): Promise<CountingServer> {
    const started = await startCountingServer(...args);
    cleanups.push(() => started.close());
    return started;
  }

  function guard(options: ConstructorParameters<typeof OutboundGuard>[0]): OutboundGuard {
    const made = new OutboundGuard(options);
    cleanups.push(() => made.destroy());
    return made;
  }

  /** POSTs `{}` to `url` under `policy`: the status, or the error it failed with. */
  async function post(url: string, policy: OutboundPolicy): Promise<number | Error> {
    try {
      const answer = await outboundRequest(new URL(url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(5000),
        policy,
      });
      // Read to its end, so the connection goes back to the agent's pool.
      for await (const _chunk of answer.body);
      await new Promise((resolve) => setImmediate(resolve));
      return answer.status;
    } catch (error) {
      return error as Error;
    }
  }

  it('DNS rebinding: one lookup per connection, and the connection goes only to the address that lookup answered', async () => {
    const local = await server();
    const resolver = rebindingResolver();
    const network = loopbackOnlyNetwork();
    const rebinding = guard({ ...strict, resolve: resolver.resolve, connect: network.connect });
    const url = `http://${REBINDING_HOST}:${local.port}/`;

    // The first lookup answers a public address: it is allowed, and it is the address connected to (the test
    // network reaches loopback only, so that attempt fails here instead of leaving the machine).
    const first = await post(url, rebinding);
    expect(resolver.answers).toEqual([PUBLIC_ADDRESS]);
    expect(network.attempts.map((attempt) => attempt.addresses.map((entry) => entry.address))).toEqual([[PUBLIC_ADDRESS]]);
    expect((first as Error & { code?: string }).code).toBe('ENETUNREACH');

    // The next connection's lookup answers 127.0.0.1: refused before any socket is opened.
    const second = await post(url, rebinding);
    expect(resolver.answers).toEqual([PUBLIC_ADDRESS, '127.0.0.1']);
    expect(second).toBeInstanceOf(OutboundRefusedError);
    expect((second as OutboundRefusedError).message).toBe(`resolves to a loopback address (${REBINDING_HOST} -> 127.0.0.1), which this server does not allow`);
    expect(network.attempts).toHaveLength(1);
    expect(local.accepted).toBe(0);
  });

  it('a name is refused when any of its addresses is refused (a public one cannot cover a private one)', async () => {
    const local = await server();
    const network = loopbackOnlyNetwork();
    const error = await post(
      `http://mixed.test:${local.port}/`,
      guard({ ...development, resolve: fixedResolver(PUBLIC_ADDRESS, '10.0.0.5').resolve, connect: network.connect }),
    );
    expect((error as OutboundRefusedError).kind).toBe('private');
    expect(network.attempts).toEqual([]);
  });

  it('literal IP hosts are judged without a lookup, in every spelling', async () => {
    const local = await server();
    const resolver = fixedResolver(PUBLIC_ADDRESS);
    const refusing = guard({ ...strict, resolve: resolver.resolve, connect: loopbackOnlyNetwork().connect });
    for (const host of ['127.0.0.1', '127.1', '0x7f000001', '[::ffff:127.0.0.1]', '[::1]']) {
      const error = await post(`http://${host}:${local.port}/`, refusing);
      expect((error as OutboundRefusedError).kind, host).toBe('loopback');
    }
    const metadata = await post(
      'http://169.254.169.254/latest/meta-data/',
      guard({ allowLoopback: true, allowPrivateNetworks: true, resolve: resolver.resolve }),
    );
    expect((metadata as OutboundRefusedError).message).toBe('resolves to a link-local (cloud metadata) address (169.254.169.254), which is never allowed');
    expect(resolver.answers).toEqual([]);
    expect(local.accepted).toBe(0);
  });

  it('with loopback allowed (development, tests) names and literals reach local servers; a kept-alive connection is not resolved again', async () => {
    const local = await server();
    const resolver = fixedResolver('127.0.0.1');
    const allowing = guard({ ...development, resolve: resolver.resolve });
    expect(await post(`http://local.test:${local.port}/`, allowing)).toBe(200);
    expect(await post(`http://local.test:${local.port}/`, allowing)).toBe(200);
    expect(resolver.answers).toEqual(['127.0.0.1']);
    expect(local.accepted).toBe(1);
    expect(await post(`http://127.0.0.1:${local.port}/`, development)).toBe(200);
    expect(local.requests).toBe(3);
  });

  it('HTTPS: the same checks, and TLS still names the host (SNI) while connecting to the checked address', async () => {
    // A TCP server on 127.0.0.1 that keeps the first bytes of each connection (a TLS ClientHello) and hangs up.
    const hellos: Buffer[] = [];
    const tcp = createTcpServer((socket) => socket.once('data', (bytes: Buffer) => (hellos.push(bytes), socket.destroy())));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => tcp.close(() => resolve())));
    const port = (tcp.address() as AddressInfo).port;

    const refused = await post(`https://${REBINDING_HOST}:${port}/`, guard({ ...strict, resolve: fixedResolver('127.0.0.1').resolve }));
    expect((refused as OutboundRefusedError).kind).toBe('loopback');
    expect(hellos).toEqual([]);

    const allowed = await post(`https://tls.test:${port}/`, guard({ ...development, resolve: fixedResolver('127.0.0.1').resolve }));
    expect(allowed).toBeInstanceOf(Error);
    expect(hellos).toHaveLength(1);
    expect(hellos[0]!.includes('tls.test')).toBe(true);
  });

  it('redirects are answers, never followed', async () => {
    const inner = await server();
    const outer = await server((_request, response) => response.writeHead(302, { location: `http://127.0.0.1:${inner.port}/` }).end());
    expect(await post(`http://127.0.0.1:${outer.port}/`, development)).toBe(302);
    expect(inner.accepted).toBe(0);
  });

  it('a name that does not resolve, a scheme other than http(s) and credentials in the URL are refused before connecting', async () => {
    const unresolved = await post('http://nowhere.test/', guard({ ...development, resolve: rebindingResolver().resolve }));
    expect((unresolved as OutboundRefusedError).reason).toBe('unresolved');
    expect((unresolved as OutboundRefusedError).message).toBe("host 'nowhere.test' does not resolve (ENOTFOUND)");
    expect(((await post('ftp://example.com/', development)) as OutboundRefusedError).reason).toBe('url');
    expect(((await post('http://user:secret@127.0.0.1:9/', development)) as OutboundRefusedError).reason).toBe('credentials');
  });

  it('one shared guard per policy; a guard is its own policy', () => {
    expect(outboundGuard({ ...strict })).toBe(outboundGuard({ ...strict }));
    expect(outboundGuard(strict)).not.toBe(outboundGuard(development));
    const own = guard({ ...strict, resolve: fixedResolver(PUBLIC_ADDRESS).resolve });
    expect(outboundGuard(own)).toBe(own);
  });
});
