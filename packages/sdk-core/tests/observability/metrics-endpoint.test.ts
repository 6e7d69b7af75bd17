import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { collectSynthesis } from '../../src/server/engines/speech/tts/collect-synthesis.js';
import type { FliteEngine } from '../../src/server/engines/speech/tts/flite-engine.js';
import { WorkerFailureError } from '../../src/server/engines/speech/workers/supervised-worker.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { WebhookReceiver, waitFor } from '../webhooks/webhook-receiver.js';
import { parsePrometheusText, requestMetrics, scrape, Scrape } from './prometheus-text.js';

const REQUESTS = 'palaver_http_request_duration_seconds_count';
const DELIVERIES = 'palaver_webhook_deliveries_total';
const OUTBOX = 'palaver_webhook_outbox_depth';

describe.each(await storeKinds())('GET /metrics (%s)', (kind) => {
  let test: TestServer;
  /** A second server in the same process, with `PALAVER_METRICS_PUBLIC=true`. */
  let open: TestServer;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    // The dispatcher starts only where a test wants deliveries, so pending rows stay pending until then.
    test = await startTestServer(kind, { config: { webhook: { dispatch: false } } });
    open = await startTestServer(kind, { env: { PALAVER_METRICS_PUBLIC: 'true' } });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await test?.close();
    await open?.close();
  });

  it('refuses a request without credentials (401), with a bad key (401) or a usage token (403); answers an API key, as x-api-key or Bearer', async () => {
    const missing = await requestMetrics(test.server);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ type: 'unauthorized' });
    expect((await requestMetrics(test.server, { 'x-api-key': 'pk_not_a_key_of_this_server' })).status).toBe(401);

    const { token } = await test.client.usage.createToken({ human: 'metrics-reader' });
    const withToken = await requestMetrics(test.server, { authorization: `Bearer ${token}` });
    expect(withToken.status).toBe(403);
    expect(await withToken.json()).toMatchObject({ type: 'forbidden' });

    const apiKeyHeaders: Array<Record<string, string>> = [{ 'x-api-key': test.server.apiKey }, { authorization: `Bearer ${test.server.apiKey}` }];
    for (const headers of apiKeyHeaders) {
      const answered = await requestMetrics(test.server, headers);
      expect(answered.status).toBe(200);
      expect(answered.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answered.headers.get('cache-control')).toBe('no-store');
      expect(await answered.text()).toContain('# TYPE palaver_http_request_duration_seconds histogram');
    }
  });

  it('answers without credentials when PALAVER_METRICS_PUBLIC=true', async () => {
    expect(open.server.config.metrics.public).toBe(true);
    const response = await requestMetrics(open.server);
    expect(response.status).toBe(200);
    expect(parsePrometheusText(await response.text()).length).toBeGreaterThan(0);
  });

  it('times REST calls by method, route template and status, never by raw path; an unknown path is "unmatched"', async () => {
    const before = await scrape(test.server);
    const persona = await test.client.personas.create({ name: 'Ada', description: 'Counted', voice: 'flite-slt' });
    await test.client.personas.retrieve(persona.id);
    await test.client.personas.retrieve(persona.id);
    await expect(test.client.personas.retrieve('persona_missing')).rejects.toSatisfy((error: unknown) => NotFoundError.isInstance(error));
    await test.client.personas.list();
    expect((await test.server.fetch(new Request('http://palaver.test/v1/no/such/route', { headers: { 'x-api-key': test.server.apiKey } }))).status).toBe(404);
    const after = await scrape(test.server);

    const delta = (labels: Record<string, string>) => after.value(REQUESTS, labels) - before.value(REQUESTS, labels);
    expect(delta({ method: 'POST', route: '/v1/persona', status: '200' })).toBe(1);
    expect(delta({ method: 'GET', route: '/v1/persona/{persona_id}', status: '200' })).toBe(2);
    expect(delta({ method: 'GET', route: '/v1/persona/{persona_id}', status: '404' })).toBe(1);
    // A static segment is never taken for a parameter.
    expect(delta({ method: 'GET', route: '/v1/persona/list', status: '200' })).toBe(1);
    expect(delta({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    // The histogram's buckets and sum are there too (in seconds: the next test).
    const sum = after.value('palaver_http_request_duration_seconds_sum', { method: 'GET', route: '/v1/persona/{persona_id}', status: '200' });
    expect(sum).toBeGreaterThan(0);
    expect(
      after.value('palaver_http_request_duration_seconds_bucket', { method: 'GET', route: '/v1/persona/{persona_id}', status: '200', le: '+Inf' }),
    ).toBeGreaterThanOrEqual(2);
    // No label carries an id or a raw path.
    const routes = new Set(after.find(REQUESTS).map((sample) => sample.labels.route));
    for (const route of routes) {
      for (const raw of [persona.id, 'persona_missing', '/v1/no/such/route']) expect(route).not.toContain(raw);
    }
  });

  it('times a request in seconds: one that took 1.5 s of the (fake) clock adds 1.5 to its sum and lands in the 2.5 s bucket', async () => {
    const persona = await test.client.personas.create({ name: 'Timed', description: 'Timed on a fake clock', voice: 'flite-slt' });
    const labels = { method: 'GET', route: '/v1/persona/{persona_id}', status: '200' };
    const before = await scrape(test.server);
    // Only performance.now, which the request's timing reads, is faked; the request starts timing when it is made.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const answering = test.server.fetch(new Request(`http://palaver.test/v1/persona/${persona.id}`, { headers: { 'x-api-key': test.server.apiKey } }));
      vi.advanceTimersByTime(1500);
      expect((await answering).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const after = await scrape(test.server);
    const delta = (name: string, extra: Record<string, string> = {}) =>
      after.value(name, { ...labels, ...extra }) - before.value(name, { ...labels, ...extra });
    expect(delta('palaver_http_request_duration_seconds_sum')).toBeCloseTo(1.5, 6);
    expect(delta('palaver_http_request_duration_seconds_bucket', { le: '1' })).toBe(0);
    expect(delta('palaver_http_request_duration_seconds_bucket', { le: '2.5' })).toBe(1);
  });

  it('counts answers written to the socket directly, an event stream, with their status', async () => {
    const base = open.server.url ?? (await open.server.listen(0, '127.0.0.1'));
    const before = await scrape(open.server);
    const streamed = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': open.server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin-offline', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect((await streamed.text()).endsWith('data: [DONE]\n\n')).toBe(true);
    const persona = await fetch(`${base}/v1/persona/persona_missing`, { headers: { 'x-api-key': open.server.apiKey } });
    expect(persona.status).toBe(404);
    const after = await scrape(open.server);
    const delta = (labels: Record<string, string>) => after.value(REQUESTS, labels) - before.value(REQUESTS, labels);
    expect(delta({ method: 'POST', route: '/v1/chat/completions', status: '200' })).toBe(1);
    expect(delta({ method: 'GET', route: '/v1/persona/{persona_id}', status: '404' })).toBe(1);
  });

  it('keeps one registry per server: requests to one server never show on another in the same process', async () => {
    await test.client.personas.list();
    await open.client.voices.list();
    const [mine, theirs] = [await scrape(test.server), await scrape(open.server)];
    expect(mine.value(REQUESTS, { method: 'GET', route: '/v1/persona/list', status: '200' })).toBeGreaterThan(0);
    expect(theirs.value(REQUESTS, { method: 'GET', route: '/v1/persona/list', status: '200' })).toBe(0);
    expect(theirs.value(REQUESTS, { method: 'GET', route: '/v1/voice/list', status: '200' })).toBeGreaterThan(0);
    expect(mine.value(REQUESTS, { method: 'GET', route: '/v1/voice/list', status: '200' })).toBe(0);
  });

  it('exports process and Node.js metrics under the palaver_ prefix, and nothing without it', async () => {
    const metrics = await scrape(test.server);
    for (const name of [
      'palaver_process_cpu_user_seconds_total',
      'palaver_process_resident_memory_bytes',
      'palaver_nodejs_heap_size_used_bytes',
      'palaver_nodejs_eventloop_lag_seconds',
    ]) {
      expect(metrics.has(name), name).toBe(true);
    }
    expect(metrics.value('palaver_process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(metrics.samples.filter((sample) => !sample.name.startsWith('palaver_')).map((sample) => sample.name)).toEqual([]);
  });

  it('reports the webhook outbox depth: the deliveries waiting in the database, counted when scraped', async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    cleanups.push(() => receiver.close());
    const { services } = test.server;
    const project = await services.projects.create('outbox-depth');
    const { endpoint } = await services.webhooks.addEndpoint(project, { url: receiver.url });
    const before = (await scrape(test.server)).value(OUTBOX);
    await services.store.transaction(async (trx) => {
      for (let index = 0; index < 3; index += 1) {
        await services.webhooks.enqueue(trx, project, { type: 'realtime_session.time_limit_exceeded', payload: { session: `session_outbox_${index}` } });
      }
    });
    expect((await scrape(test.server)).value(OUTBOX)).toBe(before + 3);
    // Removing the endpoint gives its deliveries up: the outbox is back where it was.
    await services.webhooks.removeEndpoint(project, endpoint.id);
    expect((await scrape(test.server)).value(OUTBOX)).toBe(before);
    expect(receiver.requests).toEqual([]);
  });

  it("counts the platform dispatcher's deliveries by result: delivered, retried, failed (410 Gone)", async () => {
    // The receiver answers by event: 200, then 500 (retried in an hour), then 410 (given up, endpoint disabled).
    const receiver = new WebhookReceiver((_attempt, request) => {
      const session = (JSON.parse(request.body) as { payload?: { session?: string } }).payload?.session;
      if (session === 'answer-500') return { status: 500, headers: { 'retry-after': '3600' } };
      return { status: session === 'answer-410' ? 410 : 200 };
    });
    await receiver.start();
    cleanups.push(() => receiver.close());
    const { services } = test.server;
    const project = await services.projects.create('delivery-results');
    await services.webhooks.addEndpoint(project, { url: receiver.url });
    const before = await scrape(test.server);

    await services.store.transaction(async (trx) => {
      await services.webhooks.enqueue(trx, project, { type: 'realtime_session.time_limit_exceeded', payload: { session: 'answer-200' } });
    });
    services.webhookDispatcher.start();
    await waitFor(
      async () => (await scrape(test.server)).value(DELIVERIES, { result: 'delivered' }) === before.value(DELIVERIES, { result: 'delivered' }) + 1,
      10_000,
      'one delivered',
    );
    expect(receiver.requests).toHaveLength(1);

    await services.store.transaction(async (trx) => {
      await services.webhooks.enqueue(trx, project, { type: 'realtime_session.time_limit_exceeded', payload: { session: 'answer-500' } });
    });
    await waitFor(
      async () => (await scrape(test.server)).value(DELIVERIES, { result: 'retried' }) === before.value(DELIVERIES, { result: 'retried' }) + 1,
      10_000,
      'one retried',
    );

    await services.store.transaction(async (trx) => {
      await services.webhooks.enqueue(trx, project, { type: 'realtime_session.time_limit_exceeded', payload: { session: 'answer-410' } });
    });
    await waitFor(
      async () => (await scrape(test.server)).value(DELIVERIES, { result: 'failed' }) === before.value(DELIVERIES, { result: 'failed' }) + 1,
      10_000,
      'one failed',
    );
    await services.webhookDispatcher.stop();

    const after = await scrape(test.server);
    expect(after.value(DELIVERIES, { result: 'delivered' }) - before.value(DELIVERIES, { result: 'delivered' })).toBe(1);
    expect(after.value(DELIVERIES, { result: 'retried' }) - before.value(DELIVERIES, { result: 'retried' })).toBe(1);
    expect(after.value(DELIVERIES, { result: 'failed' }) - before.value(DELIVERIES, { result: 'failed' })).toBe(1);
    expect(receiver.requests.map((request) => request.answered)).toEqual([200, 500, 410]);
  });

  it('counts speech worker restarts by engine', async () => {
    const flite = test.server.services.speech.tts.engine('flite') as FliteEngine;
    const restarts = (metrics: Scrape) => metrics.value('palaver_speech_worker_restarts_total', { worker: 'flite' });
    const before = restarts(await scrape(test.server));
    await expect(flite.worker.injectFault('exit')).rejects.toBeInstanceOf(WorkerFailureError);
    await expect(flite.worker.injectFault('hang', 300)).rejects.toThrow(/timed out/);
    expect(restarts(await scrape(test.server)) - before).toBe(2);
    // The engine keeps working after its restarts.
    const { pcm } = await collectSynthesis(flite.synthesize({ text: 'Still here.', voice: 'slt' }));
    expect(pcm.length).toBeGreaterThan(8000);
  });
});
