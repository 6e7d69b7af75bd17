import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { callWebRequestTool } from '../../src/server/voice/tools/web-request-tool.js';
import { WebhookDispatcher } from '../../src/server/domain/webhooks/webhook-dispatcher.js';
import type { ChatDelta } from '../../src/server/engines/llm/chat-model.js';
import { createOpenAiCompatibleModel } from '../../src/server/engines/llm/openai-compatible-model.js';
import { OutboundGuard, type OutboundPolicy } from '../../src/server/kernel/outbound/index.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  fixedResolver,
  loopbackOnlyNetwork,
  PUBLIC_ADDRESS,
  REBINDING_HOST,
  rebindingResolver,
  startCountingServer,
  type CountingServer,
} from './test-network.js';

/**
 * DNS rebinding against every kind of caller that reaches URLs the platform's users give it. The resolver answers
 * a public address to the first lookup and 127.0.0.1 to the next; the policy refuses loopback. Before the outbound
 * guard, the webhook dispatcher and the web_request tool looked the name up to check it (public: allowed) and
 * again to connect (127.0.0.1): the local server got the request. Now each connection resolves once: the first
 * goes to the public address it checked (the test network fails it, loopback being all it reaches), the second
 * is refused, and the local server never sees a connection.
 */
const strict = { allowLoopback: false, allowPrivateNetworks: false };
const development = { allowLoopback: true, allowPrivateNetworks: false };

function rebindingSetup() {
  const resolver = rebindingResolver();
  const network = loopbackOnlyNetwork();
  const guard = new OutboundGuard({ ...strict, resolve: resolver.resolve, connect: network.connect });
  return { resolver, network, guard };
}

const guards: OutboundGuard[] = [];
function tracked<T extends { guard: OutboundGuard }>(setup: T): T {
  guards.push(setup.guard);
  return setup;
}

afterEach(() => {
  for (const guard of guards.splice(0)) guard.destroy();
});

describe('the web_request tool', () => {
  let local: CountingServer;
  beforeAll(async () => {
    local = await startCountingServer();
  });
  afterAll(async () => local.close());

  const call = (url: string, policy: OutboundPolicy) =>
    callWebRequestTool(url, 'get_weather', { city: 'Oslo' }, { policy, timeoutMs: 5000, signal: new AbortController().signal });

  it('DNS rebinding: no connection reaches 127.0.0.1, and the model is told the URL was refused', async () => {
    const { resolver, network, guard } = tracked(rebindingSetup());
    const url = `http://${REBINDING_HOST}:${local.port}/tools/call`;
    const before = local.accepted;

    const first = await call(url, guard);
    expect(first).toEqual({ ok: false, error: expect.stringMatching(/^the tool's URL could not be reached \(.*ENETUNREACH/) });
    expect(network.attempts.map((attempt) => attempt.addresses[0]!.address)).toEqual([PUBLIC_ADDRESS]);

    const second = await call(url, guard);
    expect(second).toEqual({
      ok: false,
      error: `the tool's URL was refused: resolves to a loopback address (${REBINDING_HOST} -> 127.0.0.1), which this server does not allow (set PALAVER_LLM_ALLOW_LOOPBACK=true to allow it)`,
    });
    expect(resolver.answers).toEqual([PUBLIC_ADDRESS, '127.0.0.1']);
    expect(local.accepted - before).toBe(0);
  });

  it('with loopback allowed it reaches a local tool, by name and by address', async () => {
    const resolver = fixedResolver('127.0.0.1');
    const guard = new OutboundGuard({ ...development, resolve: resolver.resolve });
    guards.push(guard);
    expect(await call(`http://tools.test:${local.port}/tools/call`, guard)).toEqual({ ok: true, value: { ok: true } });
    expect(await call(`http://127.0.0.1:${local.port}/tools/call`, development)).toEqual({ ok: true, value: { ok: true } });
    expect(resolver.answers).toEqual(['127.0.0.1']);
  });
});

describe('the webhook dispatcher', () => {
  let test: TestServer;
  let local: CountingServer;
  beforeAll(async () => {
    test = await startTestServer('sqlite', { config: { webhook: { dispatch: false } } });
    local = await startCountingServer();
  });
  afterAll(async () => {
    await local.close();
    await test.close();
  });

  /** A project with one endpoint at `url` and one event to deliver to it. */
  async function endpointWithEvent(url: string): Promise<string> {
    const project = await test.server.services.projects.create('rebinding');
    await test.server.services.webhooks.addEndpoint(project, { url });
    await test.server.services.usage.record({ project, human: 'alice' }, 'token_cnt', 1);
    return project;
  }

  it('DNS rebinding: no connection reaches 127.0.0.1, and the delivery records the refusal', async () => {
    const { resolver, network, guard } = tracked(rebindingSetup());
    const project = await endpointWithEvent(`http://${REBINDING_HOST}:${local.port}/hook`);
    const before = local.accepted;
    let now = Date.now();
    const dispatcher = new WebhookDispatcher(test.server.services.store, test.server.services.webhooks, {
      addressPolicy: guard,
      timeoutMs: 5000,
      now: () => now,
      retry: { delaysMs: [1000, 1000], jitterRatio: 0, maxRetryAfterMs: 5000 },
    });
    expect(await dispatcher.runOnce()).toBe(1);
    now += 1000;
    expect(await dispatcher.runOnce()).toBe(1);

    const [delivery] = await test.server.services.webhooks.listDeliveries(project);
    const detail = await test.server.services.webhooks.getDelivery(project, delivery!.id);
    expect(detail.attempts_log.map((attempt) => attempt.error)).toEqual([
      expect.stringMatching(/ENETUNREACH 93\.184\.216\.34/),
      `url refused: resolves to a loopback address (${REBINDING_HOST} -> 127.0.0.1), which this server does not allow (set PALAVER_WEBHOOK_ALLOW_PRIVATE=true to allow it)`,
    ]);
    expect(detail).toMatchObject({ status: 'pending', last_status: null });
    expect(resolver.answers).toEqual([PUBLIC_ADDRESS, '127.0.0.1']);
    expect(network.attempts).toHaveLength(1);
    expect(local.accepted - before).toBe(0);
  });

  it('with loopback allowed it delivers to a local receiver, by name and by address', async () => {
    const guard = new OutboundGuard({ ...development, resolve: fixedResolver('127.0.0.1').resolve });
    guards.push(guard);
    for (const [url, addressPolicy] of [
      [`http://hooks.test:${local.port}/hook`, guard],
      [`http://127.0.0.1:${local.port}/hook`, undefined],
    ] as const) {
      const project = await endpointWithEvent(url);
      const dispatcher = new WebhookDispatcher(test.server.services.store, test.server.services.webhooks, {
        timeoutMs: 5000,
        ...(addressPolicy ? { addressPolicy } : {}),
      });
      const requestsBefore = local.requests;
      await dispatcher.runOnce();
      expect((await test.server.services.webhooks.listDeliveries(project))[0], url).toMatchObject({ status: 'delivered', last_status: 200 });
      expect(local.requests - requestsBefore).toBe(1);
    }
  });
});

describe('an LLM upstream', () => {
  let upstream: FakeOpenAiUpstream;
  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
  });
  afterAll(async () => upstream.close());

  const request = { messages: [{ role: 'user' as const, content: 'hi' }], toolChoice: 'none' as const, parallelToolCalls: false };
  const port = () => new URL(upstream.chatUrl).port;

  async function collect(stream: AsyncIterable<ChatDelta>): Promise<string> {
    let text = '';
    for await (const delta of stream) if (delta.type === 'text') text += delta.text;
    return text;
  }

  it('DNS rebinding: the retry that would reach 127.0.0.1 is refused (400, not retried), and no connection reaches it', async () => {
    const { resolver, network, guard } = tracked(rebindingSetup());
    const before = upstream.connectionCount;
    const model = createOpenAiCompatibleModel({
      id: 'llm_rebinding',
      url: `http://${REBINDING_HOST}:${port()}/v1/chat/completions`,
      model: 'fake-gpt',
      addressPolicy: guard,
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 20 },
    });
    // The first attempt goes to the public address its lookup answered (unreachable on the test network, so
    // retried); the second attempt's lookup answers 127.0.0.1 and the guard refuses it.
    const error = await collect(model.stream(request, { signal: new AbortController().signal })).catch((caught: unknown) => caught);
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `model: the LLM's post_url resolves to a loopback address (${REBINDING_HOST} -> 127.0.0.1), which this server does not allow (set PALAVER_LLM_ALLOW_LOOPBACK=true to allow it)`,
    );
    expect(resolver.answers).toEqual([PUBLIC_ADDRESS, '127.0.0.1']);
    expect(network.attempts.map((attempt) => attempt.addresses[0]!.address)).toEqual([PUBLIC_ADDRESS]);
    expect(upstream.connectionCount - before).toBe(0);
  });

  it('with loopback allowed it streams from a local upstream, by name and by address', async () => {
    const guard = new OutboundGuard({ ...development, resolve: fixedResolver('127.0.0.1').resolve });
    guards.push(guard);
    for (const [url, addressPolicy] of [
      [`http://llm.test:${port()}/v1/chat/completions`, guard],
      [upstream.chatUrl, development],
    ] as const) {
      const model = createOpenAiCompatibleModel({ id: 'llm_local', url, model: 'fake-gpt', addressPolicy });
      expect(await collect(model.stream(request, { signal: new AbortController().signal })), url).toBe('Hello from the fake upstream.');
    }
  });
});
