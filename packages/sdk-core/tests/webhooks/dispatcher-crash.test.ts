import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type PalaverServer } from '../../src/server.js';
import { dropSchema, postgresUrl, storeKinds, uniqueSchema } from '../support/databases.js';
import { WebhookReceiver, standardWebhooksValid, waitFor } from './webhook-receiver.js';

const EVENTS = 1000;
const KILLS = 10;
const SECRET = 'whsec_c2VjcmV0LWZvci10aGUtY3Jhc2gtdGVzdA==';
const child = fileURLToPath(new URL('./dispatcher-child.ts', import.meta.url));

// Leases and SKIP LOCKED claims across processes are the subject: PostgreSQL only.
const kinds = (await storeKinds()).filter((kind) => kind === 'postgres');

function startChild(schema: string): Promise<ChildProcess> {
  const process_ = spawn(process.execPath, ['--import', 'tsx', child, postgresUrl, schema], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dispatcher child did not start within 30 s')), 30_000);
    process_.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve(process_);
      }
    });
    process_.once('exit', (code) => reject(new Error(`dispatcher child exited early (${code})`)));
  });
}

function kill(process_: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (process_.exitCode !== null || process_.signalCode !== null) return resolve();
    process_.once('exit', () => resolve());
    process_.kill('SIGKILL');
  });
}

describe.each(kinds)('webhook dispatcher killed mid-delivery (%s)', () => {
  const schema = uniqueSchema();
  let server: PalaverServer;
  let receiver: WebhookReceiver;
  let running: ChildProcess | undefined;

  beforeAll(async () => {
    server = await createServer({
      env: {},
      config: { logLevel: 'silent', databaseUrl: postgresUrl, webhook: { dispatch: false } },
      databaseSchema: schema,
    });
    // Slow answers keep deliveries in flight, so the kills land mid-delivery.
    receiver = new WebhookReceiver(() => ({ status: 200, delayMs: 40 }));
    await receiver.start();
  });
  afterAll(async () => {
    if (running) await kill(running);
    await receiver?.close();
    await server?.close();
    await dropSchema(schema);
  });

  it(`${EVENTS} events, dispatcher SIGKILLed ${KILLS} times -> every event delivered, same webhook-id`, async () => {
    const { services, project } = server;
    await services.webhooks.addEndpoint(project, { url: receiver.url, secret: SECRET });
    const eventIds: string[] = [];
    for (let batch = 0; batch < EVENTS / 100; batch += 1) {
      await services.store.transaction(async (trx) => {
        for (let index = 0; index < 100; index += 1) {
          const n = batch * 100 + index;
          eventIds.push(await services.webhooks.enqueue(trx, project, { type: 'realtime_session.time_limit_exceeded', payload: { session: `session_${n}` } }));
        }
      });
    }

    let killedInFlight = 0;
    for (let round = 0; round < KILLS; round += 1) {
      running = await startChild(schema);
      const before = receiver.requests.length;
      await waitFor(() => receiver.inFlight > 0 && receiver.requests.length > before, 20_000, 'a delivery in flight');
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 150)));
      await waitFor(() => receiver.inFlight > 0, 20_000, 'a delivery in flight');
      if (receiver.inFlight > 0) killedInFlight += 1;
      await kill(running);
      running = undefined;
    }
    expect(killedInFlight).toBe(KILLS);
    expect(receiver.deliveredIds().size).toBeLessThan(EVENTS);

    running = await startChild(schema);
    await waitFor(() => receiver.deliveredIds().size >= EVENTS, 60_000, 'every event delivered');
    await waitFor(
      async () => (await services.webhooks.listDeliveries(project, { status: 'delivered', limit: 1000 })).length === EVENTS,
      20_000,
      'all deliveries settled',
    );

    const delivered = receiver.deliveredIds();
    expect(eventIds.every((id) => delivered.has(id))).toBe(true);
    // Repeats (at-least-once) carry the same id and the same bytes; every request verifies.
    const bodies = new Map<string, string>();
    for (const request of receiver.requests) {
      const id = String(request.headers['webhook-id']);
      expect(bodies.get(id) ?? request.body).toBe(request.body);
      bodies.set(id, request.body);
      expect(standardWebhooksValid(SECRET, request.headers, request.body)).toBe(true);
    }
    expect(bodies.size).toBe(EVENTS);
    console.log(
      `[dispatcher crash] ${receiver.requests.length} requests for ${EVENTS} events (${receiver.requests.length - EVENTS} repeats), ${killedInFlight} kills mid-delivery`,
    );
  }, 150_000);
});
