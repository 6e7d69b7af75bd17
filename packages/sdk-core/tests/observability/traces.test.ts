import { context, propagation, SpanKind, SpanStatusCode, trace, type TextMapPropagator } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, UpstreamError } from '../../src/index.js';
import { HumanParticipant, offlineAnswer, RecordedEvents, sessionSpec } from '../../src/testing/agent-harness.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { traceTurn } from '../../src/server/voice/metrics/turn-span.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// What an application does to export traces (with an OTLP exporter instead of the in-memory one): the
// platform itself only calls @opentelemetry/api.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** Reads a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), as the SDK's propagator an application registers does. */
const traceparentReader: TextMapPropagator = {
  inject: () => undefined,
  extract(active, carrier, getter) {
    const value = getter.get(carrier, 'traceparent');
    const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(String(value ?? ''));
    if (!match) return active;
    return trace.setSpanContext(active, { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true });
  },
  fields: () => ['traceparent'],
};

beforeAll(() => {
  expect(trace.setGlobalTracerProvider(provider)).toBe(true);
  expect(context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())).toBe(true);
  expect(propagation.setGlobalPropagator(traceparentReader)).toBe(true);
});
afterAll(async () => {
  trace.disable();
  context.disable();
  propagation.disable();
  await provider.shutdown();
});

function spansNamed(name: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.name === name);
}

function only(name: string): ReadableSpan {
  const found = spansNamed(name);
  if (found.length !== 1)
    throw new Error(
      `${found.length} spans named '${name}' (have ${exporter
        .getFinishedSpans()
        .map((span) => span.name)
        .join(', ')})`,
    );
  return found[0]!;
}

function isChildOf(child: ReadableSpan, parent: ReadableSpan): boolean {
  return child.parentSpanContext?.spanId === parent.spanContext().spanId && child.spanContext().traceId === parent.spanContext().traceId;
}

it('a voice turn ended by adaptive turn detection carries how the words read at the pause', async () => {
  exporter.reset();
  const endedAtClock = performance.now();
  const turn = { kind: 'user', source: 'voice', text: 'what time does the train leave', startedAt: new Date(), endedAt: new Date(), endedAtClock } as const;
  const endOfTurn = { reason: 'question', probability: 0.95, waitMs: 203 } as const;
  await traceTurn(turn, { sessionId: 'session_1', index: 0 }, new AbortController().signal, async () => ({
    type: 'done',
    metrics: { session: 'session_1', turn: 0, source: 'voice', interrupted: false, endOfSpeechDecisionMs: 210, endOfTurn },
  }));
  expect(only('agent turn').attributes).toMatchObject({
    'palaver.turn.end_of_speech_decision_ms': 210,
    'palaver.turn.end_of_turn.reason': 'question',
    'palaver.turn.end_of_turn.probability': 0.95,
    'palaver.turn.end_of_turn.wait_ms': 203,
  });
});

describe.each(await storeKinds())('traces through @opentelemetry/api (%s)', (kind) => {
  let test: TestServer;
  let upstream: FakeOpenAiUpstream;

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    test = await startTestServer(kind);
    await test.server.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await test?.close();
    await upstream?.close();
  });
  beforeEach(() => exporter.reset());

  it('each HTTP request is a server span named METHOD /route/template, with the HTTP attributes; 4xx is not an error', async () => {
    await test.client.personas.list();
    await expect(test.client.personas.retrieve('persona_missing')).rejects.toSatisfy((error: unknown) => NotFoundError.isInstance(error));
    await test.server.fetch(new Request('http://palaver.test/v1/no/such/route', { headers: { 'x-api-key': test.server.apiKey } }));

    const list = only('GET /v1/persona/list');
    expect(list.kind).toBe(SpanKind.SERVER);
    expect(list.parentSpanContext).toBeUndefined();
    expect(list.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.route': '/v1/persona/list', 'http.response.status_code': 200 });
    expect(list.status.code).toBe(SpanStatusCode.UNSET);
    expect(list.attributes['palaver.request.id']).toMatch(/\S/);

    const missing = only('GET /v1/persona/{persona_id}');
    expect(missing.attributes).toMatchObject({ 'http.route': '/v1/persona/{persona_id}', 'http.response.status_code': 404 });
    expect(missing.status.code).toBe(SpanStatusCode.UNSET);
    // The raw path (ids, or the credential of a chat audio URL) is never recorded.
    expect(JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes))).not.toContain('persona_missing');

    // No route answered: the span is named by the method alone and has no http.route.
    const unmatched = only('GET');
    expect(unmatched.attributes['http.response.status_code']).toBe(404);
    expect(unmatched.attributes).not.toHaveProperty('http.route');
  });

  it.each(['fetch', 'socket'])("continues the caller's trace from its traceparent header (%s)", async (via) => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const headers = { traceparent: `00-${traceId}-${callerSpanId}-01` };
    if (via === 'fetch') await test.server.fetch(new Request('http://palaver.test/health', { headers }));
    else await (await fetch(`${test.server.url}/health`, { headers })).text();
    const health = only('GET /health');
    expect(health.spanContext().traceId).toBe(traceId);
    expect(health.parentSpanContext?.spanId).toBe(callerSpanId);
  });

  it("a chat completion's gateway span is the child of the request's span, with model, stream, tokens, outcome and the first delta", async () => {
    await test.client.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'Hello there' }] });
    const request = only('POST /v1/chat/completions');
    const chat = only('chat builtin-offline');
    expect(isChildOf(chat, request)).toBe(true);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'builtin-offline',
      'palaver.chat.stream': false,
      'palaver.chat.outcome': 'completed',
    });
    expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(chat.attributes['palaver.chat.time_to_first_delta_ms']).toBeGreaterThanOrEqual(0);
    expect(chat.events.map((event) => event.name)).toEqual(['first delta']);
    expect(chat.status.code).toBe(SpanStatusCode.UNSET);

    // Streamed: the gateway span ends with the stream, after its request span, still its child.
    exporter.reset();
    const response = await test.server.fetch(
      new Request('http://palaver.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey },
        body: JSON.stringify({ model: 'builtin-offline', stream: true, messages: [{ role: 'user', content: 'Hello again' }] }),
      }),
    );
    expect(await response.text()).toContain('[DONE]');
    await eventually(() => expect(spansNamed('chat builtin-offline')).toHaveLength(1));
    const streamed = only('chat builtin-offline');
    expect(isChildOf(streamed, only('POST /v1/chat/completions'))).toBe(true);
    expect(streamed.attributes).toMatchObject({ 'palaver.chat.stream': true, 'palaver.chat.outcome': 'completed' });
  });

  it('a failing upstream: the gateway span and the 502 request span are errors; a call refused before the model is marked refused', async () => {
    const llm = await test.client.llms.create({ name: 'failing', description: '', headers: [], model: 'fake-gpt', post_url: upstream.chatUrl });
    upstream.enqueue({ kind: 'error', status: 500 }, { kind: 'error', status: 500 }, { kind: 'error', status: 500 });
    exporter.reset();
    const failure = await test.client.chat.completions.create({ model: llm.id, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(UpstreamError.isInstance(failure)).toBe(true);
    const request = only('POST /v1/chat/completions');
    expect(request.attributes['http.response.status_code']).toBe(502);
    expect(request.status.code).toBe(SpanStatusCode.ERROR);
    const chat = only(`chat ${llm.id}`);
    expect(isChildOf(chat, request)).toBe(true);
    expect(chat.attributes['palaver.chat.outcome']).toBe('failed');
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.events.map((event) => event.name)).toContain('exception');

    exporter.reset();
    const refused = await test.client.chat.completions
      .create({ model: 'llm_that_does_not_exist', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(BadRequestError.isInstance(refused) || NotFoundError.isInstance(refused)).toBe(true);
    const refusedChat = only('chat llm_that_does_not_exist');
    expect(refusedChat.attributes['palaver.chat.outcome']).toBe('refused');
    expect(only('POST /v1/chat/completions').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a voice agent turn is a span with its timings and its LLM call as a child; an interrupted turn is marked', async () => {
    const identity = `human-traces-${kind}`;
    const spec = await sessionSpec(test, identity);
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const handle = await test.server.services.agents.start(spec, new RecordedEvents());
    await human.waitForState('listening');
    exporter.reset();

    await human.type('What is the weather like today?');
    await eventually(
      () => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([offlineAnswer('What is the weather like today?')]),
      20_000,
    );
    await eventually(() => expect(spansNamed('agent turn')).toHaveLength(1));
    const turn = only('agent turn');
    expect(turn.attributes).toMatchObject({
      'palaver.session.id': spec.session.id,
      'palaver.turn.index': 0,
      'palaver.turn.source': 'text',
      'palaver.turn.outcome': 'done',
      'palaver.turn.interrupted': false,
    });
    for (const timing of ['llm_first_token_ms', 'tts_first_audio_ms', 'response_ms']) {
      expect(turn.attributes[`palaver.turn.${timing}`], timing).toBeGreaterThanOrEqual(0);
    }
    expect(turn.attributes).not.toHaveProperty('palaver.turn.stt_final_ms');
    expect(turn.events.map((event) => event.name)).toContain('first agent output');
    expect(isChildOf(only('chat builtin-offline'), turn)).toBe(true);

    // A long scripted utterance, interrupted by a typed message.
    await human.waitForState('listening');
    exporter.reset();
    await handle.speak(`${'This is a long story that goes on and on, so that there is time to interrupt it. '.repeat(6)}`.trim());
    await human.waitForState('speaking');
    await new Promise((resolve) => setTimeout(resolve, 800));
    await human.type('Stop.');
    await eventually(() => expect(spansNamed('agent turn')).toHaveLength(2), 20_000);
    const [interrupted, answer] = spansNamed('agent turn');
    expect(interrupted!.attributes).toMatchObject({ 'palaver.turn.source': 'scripted', 'palaver.turn.interrupted': true });
    expect(interrupted!.events.map((event) => event.name)).toContain('interrupted');
    expect(answer!.attributes).toMatchObject({ 'palaver.turn.source': 'text', 'palaver.turn.interrupted': false });
    expect(answer!.events.map((event) => event.name)).not.toContain('interrupted');

    await handle.stop();
    await human.leave();
  }, 90_000);
});
