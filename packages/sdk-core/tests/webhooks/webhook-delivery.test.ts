import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { WebhookDispatcher } from '../../src/server/domain/webhooks/webhook-dispatcher.js';
import { WebhookService } from '../../src/server/domain/webhooks/webhook-service.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { WebhookReceiver, specSignatureValid, standardWebhooksValid, waitFor, type ReceiverAction } from './webhook-receiver.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe.each(await storeKinds())('webhook delivery (%s)', (kind) => {
  let test: TestServer;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    test = await startTestServer(kind, { config: { webhook: { dispatch: false } } });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => test.close());

  async function receiver(script?: (attempt: number) => ReceiverAction): Promise<WebhookReceiver> {
    const started = new WebhookReceiver(script);
    await started.start();
    cleanups.push(() => started.close());
    return started;
  }

  /** A project of its own per test, so endpoints and deliveries do not mix. */
  async function project(): Promise<string> {
    return test.server.services.projects.create('webhooks');
  }

  function dispatcher(delaysMs: number[] = [50, 50, 50, 50, 50, 50]): WebhookDispatcher {
    const started = new WebhookDispatcher(test.server.services.store, test.server.services.webhooks, {
      pollIntervalMs: 20,
      // Long enough for an answer on a loaded machine (at 400 ms a prompt 500 was once recorded as a timeout); only
      // the receiver that hangs waits it out.
      timeoutMs: 2000,
      leaseMs: 3000,
      retry: { delaysMs, jitterRatio: 0.5, maxRetryAfterMs: 5000 },
    });
    started.start();
    cleanups.push(() => started.stop());
    return started;
  }

  it('retries through 500, a timeout, a reset and 429 Retry-After, then delivers every event with one webhook-id', async () => {
    const script = (attempt: number): ReceiverAction =>
      attempt === 1
        ? { status: 500 }
        : attempt === 2
          ? 'hang'
          : attempt === 3
            ? 'reset'
            : attempt === 4
              ? { status: 429, headers: { 'retry-after': '1' } }
              : { status: 200 };
    const hook = await receiver(script);
    const projectId = await project();
    const { endpoint } = await test.server.services.webhooks.addEndpoint(projectId, { url: hook.url, secret: SECRET });
    const usages = [];
    for (let index = 0; index < 5; index += 1) {
      usages.push(await test.server.services.usage.record({ project: projectId, human: 'alice' }, 'token_cnt', 10 + index, { model: 'test' }));
    }
    dispatcher();
    await waitFor(() => hook.deliveredIds().size === 5, 20_000, 'five delivered events');
    await waitFor(
      async () => (await test.server.services.webhooks.listDeliveries(projectId, { status: 'delivered' })).length === 5,
      5_000,
      'five deliveries recorded as delivered',
    );

    const byId = new Map<string, typeof hook.requests>();
    for (const request of hook.requests) byId.set(String(request.headers['webhook-id']), [...(byId.get(String(request.headers['webhook-id'])) ?? []), request]);
    expect(byId.size).toBe(5);
    const values = new Set<number>();
    for (const [id, attempts] of byId) {
      expect(id).toMatch(/^msg_/);
      expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4, 5]);
      // The same bytes every time, each attempt freshly signed and verifiable.
      expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
      for (const attempt of attempts) {
        expect(standardWebhooksValid(SECRET, attempt.headers, attempt.body)).toBe(true);
        expect(specSignatureValid(SECRET, attempt.headers, attempt.body)).toBe(true);
        expect(attempt.headers['content-type']).toBe('application/json');
      }
      // (When the attempt after the 429 comes, as its Retry-After says: the test on the dispatcher's clock below.)
      const message = JSON.parse(attempts[0]!.body);
      expect(message.type).toBe('usage.tracked');
      expect(message.payload).toMatchObject({ type: 'token_cnt', project: projectId, human: 'alice', human_id: 'alice', metadata: { model: 'test' } });
      expect(message.payload.extra).toEqual(expect.any(Object));
      values.add(message.payload.value);
    }
    expect([...values].sort()).toEqual([10, 11, 12, 13, 14]);
    expect(new Set(usages.map((usage) => usage.id)).size).toBe(5);

    const deliveries = await test.server.services.webhooks.listDeliveries(projectId, { endpointId: endpoint.id });
    expect(deliveries).toHaveLength(5);
    expect(deliveries.every((delivery) => delivery.status === 'delivered' && delivery.attempts === 5)).toBe(true);
    const detail = await test.server.services.webhooks.getDelivery(projectId, deliveries[0]!.id);
    expect(detail.attempts_log.map((attempt) => attempt.status_code)).toEqual([500, null, null, 429, 200]);
    expect(detail.attempts_log[1]!.error).toContain('timed out');
  });

  it("a 429's Retry-After holds the next attempt until the dispatcher's clock has passed it", async () => {
    const hook = await receiver((attempt) => (attempt === 1 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 }));
    const projectId = await project();
    await test.server.services.webhooks.addEndpoint(projectId, { url: hook.url, secret: SECRET });
    await test.server.services.usage.record({ project: projectId, human: 'erin' }, 'token_cnt', 1);
    // The dispatcher's clock is the test's: rounds run when the test says, at the time it sets.
    const start = Date.now();
    let now = start;
    const clocked = new WebhookDispatcher(test.server.services.store, test.server.services.webhooks, {
      timeoutMs: 5000,
      now: () => now,
      retry: { delaysMs: [50, 50, 50], jitterRatio: 0, maxRetryAfterMs: 5000 },
    });
    await clocked.runOnce();
    expect(hook.requests.map((request) => request.answered)).toEqual([429]);
    now = start + 1999;
    await clocked.runOnce();
    expect(hook.requests).toHaveLength(1);
    now = start + 2000;
    await clocked.runOnce();
    expect(hook.requests.map((request) => request.answered)).toEqual([429, 200]);
    const [delivery] = await test.server.services.webhooks.listDeliveries(projectId);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('a forged or tampered delivery does not verify', async () => {
    const hook = await receiver();
    const projectId = await project();
    await test.server.services.webhooks.addEndpoint(projectId, { url: hook.url, secret: SECRET });
    await test.server.services.usage.record({ project: projectId, human: 'bob' }, 'conversational_seconds', 3.5);
    dispatcher();
    await waitFor(() => hook.requests.length === 1, 10_000, 'one delivery');
    const [request] = hook.requests;
    expect(standardWebhooksValid(SECRET, request!.headers, request!.body)).toBe(true);
    expect(standardWebhooksValid(SECRET, request!.headers, request!.body.replace('3.5', '350'))).toBe(false);
    expect(standardWebhooksValid('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', request!.headers, request!.body)).toBe(false);
    expect(standardWebhooksValid(SECRET, { ...request!.headers, 'webhook-id': 'msg_other' }, request!.body)).toBe(false);
    expect(specSignatureValid(SECRET, request!.headers, `${request!.body} `)).toBe(false);
  });

  it('410 Gone disables the endpoint; re-enabling and replaying delivers with the same webhook-id', async () => {
    let gone = true;
    const hook = await receiver(() => (gone ? { status: 410 } : { status: 200 }));
    const projectId = await project();
    const { endpoint } = await test.server.services.webhooks.addEndpoint(projectId, { url: hook.url, secret: SECRET });
    await test.server.services.usage.record({ project: projectId, human: 'carol' }, 'token_cnt', 1);
    dispatcher();
    await waitFor(async () => (await test.server.services.webhooks.listEndpoints(projectId))[0]?.enabled === false, 10_000, 'endpoint disabled');
    const [disabled] = await test.server.services.webhooks.listEndpoints(projectId);
    expect(disabled!.disabled_reason).toContain('410');
    const [failed] = await test.server.services.webhooks.listDeliveries(projectId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_status: 410 });
    // While disabled, new events queue nothing for it.
    await test.server.services.usage.record({ project: projectId, human: 'carol' }, 'token_cnt', 2);
    expect(await test.server.services.webhooks.listDeliveries(projectId)).toHaveLength(1);

    gone = false;
    await test.server.services.webhooks.setEndpointEnabled(projectId, endpoint.id, true);
    expect(await test.server.services.webhooks.replay(projectId, { status: 'failed' })).toBe(1);
    await waitFor(() => hook.requests.length === 2, 10_000, 'replayed delivery');
    expect(hook.requests[1]!.headers['webhook-id']).toBe(hook.requests[0]!.headers['webhook-id']);
    expect(hook.requests[1]!.body).toBe(hook.requests[0]!.body);
  });

  it('gives up when the schedule is spent, keeps the history, and replays on demand', async () => {
    let healthy = false;
    const hook = await receiver(() => (healthy ? { status: 200 } : { status: 503 }));
    const projectId = await project();
    await test.server.services.webhooks.addEndpoint(projectId, { url: hook.url, secret: SECRET });
    await test.server.services.usage.record({ project: projectId }, 'memory_message_cnt', 1);
    dispatcher([20, 20]);
    await waitFor(async () => (await test.server.services.webhooks.listDeliveries(projectId))[0]?.status === 'failed', 10_000, 'delivery failed');
    const [failed] = await test.server.services.webhooks.listDeliveries(projectId);
    expect(failed).toMatchObject({ attempts: 3, last_status: 503 });
    expect(hook.requests).toHaveLength(3);
    healthy = true;
    expect(await test.server.services.webhooks.replay(projectId, { deliveryId: failed!.id })).toBe(1);
    await waitFor(() => hook.deliveredIds().size === 1, 10_000, 'replayed delivery');
    await waitFor(async () => (await test.server.services.webhooks.getDelivery(projectId, failed!.id)).status === 'delivered', 5_000, 'delivered status');
    expect(hook.requests.map((request) => request.answered)).toEqual([503, 503, 503, 200]);
  });

  it('writes no event when the causing transaction rolls back', async () => {
    const projectId = await project();
    const hook = await receiver();
    await test.server.services.webhooks.addEndpoint(projectId, { url: hook.url, secret: SECRET });
    await expect(
      test.server.services.store.transaction(async (trx) => {
        await test.server.services.usage.recordIn(trx, { project: projectId, human: 'dave' }, 'token_cnt', 5);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await test.server.services.webhooks.listDeliveries(projectId)).toHaveLength(0);
    const usage = await test.server.services.usage.consumption(test.server.services.store.db, projectId, 'dave', 'token_cnt');
    expect(usage.used).toBe(0);
  });

  it('refuses private and loopback URLs unless configuration allows them', async () => {
    const strict = new WebhookService(test.server.services.store, new Uint8Array(32), { allowPrivateAddresses: false });
    const projectId = await project();
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://10.1.2.3/',
      'http://169.254.169.254/latest',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'ftp://example.com/',
    ]) {
      const error = await strict.addEndpoint(projectId, { url }).catch((caught: unknown) => caught);
      expect(BadRequestError.isInstance(error), url).toBe(true);
      expect((error as BadRequestError).message).toMatch(/^url: /);
    }
    await expect(strict.addEndpoint(projectId, { url: 'http://93.184.215.14/hook' })).resolves.toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
    const permissive = await test.server.services.webhooks.addEndpoint(projectId, { url: 'http://127.0.0.1:9/hook' });
    expect(permissive.endpoint.enabled).toBe(true);
  });
});
