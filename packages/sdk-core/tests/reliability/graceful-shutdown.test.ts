import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RealtimeSession } from '../../src/contract/realtime.js';
import { createServer } from '../../src/server.js';
import { dropSchema, postgresUrl, storeKinds, uniqueSchema } from '../support/databases.js';
import { startServerProcess } from '../support/server-process.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';

/** How long a delivery takes at the receiver: long enough to be in flight when SIGTERM arrives. */
const SLOW_RECEIVER_MS = 1500;

describe.each(await storeKinds())('graceful shutdown on SIGTERM (%s)', (kind) => {
  let receiver: WebhookReceiver;
  let folder: string;
  beforeAll(async () => {
    receiver = new WebhookReceiver(() => ({ status: 200, delayMs: SLOW_RECEIVER_MS }));
    await receiver.start();
    folder = mkdtempSync(join(tmpdir(), 'palaver-shutdown-'));
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('stops accepting, ends live sessions as server_shutdown, finishes webhook deliveries in flight and exits 0 (inside its own 10 s grace)', async () => {
    const schema = kind === 'postgres' ? uniqueSchema() : undefined;
    const storage = kind === 'postgres' ? { databaseUrl: postgresUrl } : { database: join(folder, 'palaver.db') };
    const config = { ...storage, apiKey: 'pk_shutdown_test_key_0123456789abc', webhook: { url: receiver.url, secret: 'whsec_c2h1dGRvd24tdGVzdA==' } };
    const server = await startServerProcess(config, schema ? { databaseSchema: schema } : {});
    try {
      const headers = { 'x-api-key': server.apiKey, 'content-type': 'application/json' };
      const started = await fetch(`${server.url}/v1/realtime/start`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ config: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } } }),
      });
      const { session } = (await started.json()) as { session: RealtimeSession };
      expect(session.state).toBe('in_progress');
      // The start's state_changed events are being delivered (the receiver answers slowly).
      await expect.poll(() => receiver.inFlight, { timeout: 10_000 }).toBeGreaterThan(0);

      const exiting = server.kill('SIGTERM');
      // No new connections while the platform winds down. The child handles the signal on its own schedule (a loaded
      // machine may take longer than a fixed wait): poll until a new connection is refused.
      const refused = () =>
        fetch(`${server.url}/health`).then(
          () => 'accepted',
          () => 'refused',
        );
      await expect.poll(refused, { timeout: 10_000, interval: 50 }).toBe('refused');
      expect(server.alive(), 'still finishing its deliveries').toBe(true);
      // 0: the child's own deadline (10 s after SIGTERM) exits 1, so it closed inside it.
      expect(await exiting).toBe(0);

      // What the stopped instance left behind, read by a new one without its dispatcher.
      const after = await createServer({
        env: {},
        config: { ...config, logLevel: 'silent', webhook: { dispatch: false } },
        ...(schema ? { databaseSchema: schema } : {}),
      });
      try {
        const stored = await after.fetch(new Request(`http://palaver.test/v1/realtime/${session.id}`, { headers }));
        expect(await stored.json()).toMatchObject({ state: 'ended', ended_at: expect.any(String), _extra: { stop_reason: 'server_shutdown' } });
        const deliveries = await after.services.store.db.selectFrom('webhook_deliveries').select(['status']).execute();
        expect(deliveries.length).toBeGreaterThanOrEqual(3); // created, in progress, ended
        expect(
          deliveries.filter((delivery) => delivery.status !== 'delivered'),
          'deliveries left undelivered',
        ).toEqual([]);
      } finally {
        await after.close();
      }
      // The human's side learnt the end before the process exited: the ended state_changed was delivered.
      const ended = receiver.requests
        .map((request) => JSON.parse(request.body) as { type: string; payload: { current_realtime_session?: RealtimeSession } })
        .filter((event) => event.type === 'realtime_session.state_changed' && event.payload.current_realtime_session?.state === 'ended');
      expect(ended.map((event) => event.payload.current_realtime_session!._extra)).toEqual([{ stop_reason: 'server_shutdown' }]);
    } finally {
      await server.kill('SIGKILL');
      if (schema) await dropSchema(schema);
    }
  }, 60_000);
});

describe('shutdown with a websocket client that stopped reading', () => {
  it('close() tells websockets the server is going away and cuts off those still open after the grace period', async () => {
    const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
    const url = await server.listen(0, '127.0.0.1');
    const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/voice/websocket`, { headers: { 'x-api-key': server.apiKey } });
    socket.on('error', () => undefined);
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'start_session', session: 'stuck', payload: { voice: 'flite-kal16' } }));
    socket.send(JSON.stringify({ type: 'push_text', session: 'stuck', payload: { text: 'A sentence to keep the synthesis busy for a while. '.repeat(40) } }));
    await once(socket, 'message');
    // The client stops reading: it cannot even take the server's close frame.
    socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // close() does not wait for that socket for ever (it would hang the test): it cuts it off. Reading again, the client
    // finds its connection closed.
    const closed = once(socket, 'close');
    await server.close();
    socket.resume();
    await closed;
    expect(socket.readyState).toBe(WebSocket.CLOSED);
  }, 30_000);
});
