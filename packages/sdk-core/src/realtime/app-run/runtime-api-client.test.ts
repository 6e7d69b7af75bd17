import { afterEach, describe, expect, it, vi } from 'vitest';
import { RuntimeApiEnvelope } from '../../contract/graph/runtime-api.js';
import { AbortError, ConnectionError, TimeoutError } from '../../errors/transport-errors.js';
import { RuntimeApiClient, RuntimeApiError } from './runtime-api-client.js';

/** A client whose sent requests are recorded (parsed with the contract's schema, as the run parses them). */
function recordingClient(options: { ackTimeoutMs?: number; completeTimeoutMs?: number; send?: (text: string) => Promise<void> } = {}) {
  const sent: Array<{ req_id: string; payload: unknown }> = [];
  const events: unknown[] = [];
  const client = new RuntimeApiClient({
    send:
      options.send ??
      (async (text) => {
        const message = RuntimeApiEnvelope.parse(JSON.parse(text));
        if (message.type !== 'request') throw new Error(`a client sent ${message.type}`);
        sent.push({ req_id: message.req_id, payload: message.payload });
      }),
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { client, sent, events };
}

describe('RuntimeApiClient', () => {
  afterEach(() => vi.useRealTimers());

  it('sends requests the run accepts and resolves each with its own complete, in any order', async () => {
    const { client, sent } = recordingClient();
    const first = client.request({ type: 'get_value', node_id: 'llm', pad_id: 'model' });
    const second = client.request({ type: 'push_value', node_id: 'chat', pad_id: 'output', value: { type: 'string', value: 'hi' } });
    await Promise.resolve();
    expect(sent.map((request) => request.payload)).toEqual([
      { type: 'get_value', node_id: 'llm', pad_id: 'model' },
      { type: 'push_value', node_id: 'chat', pad_id: 'output', value: { type: 'string', value: 'hi' } },
    ]);
    expect(new Set(sent.map((request) => request.req_id)).size).toBe(2);
    client.receive({ type: 'ack', req_id: sent[1]!.req_id });
    client.receive({ type: 'complete', req_id: sent[1]!.req_id, payload: { type: 'push_value' } });
    client.receive({ type: 'complete', req_id: sent[0]!.req_id, payload: { type: 'get_value', value: { type: 'string', value: 'gpt' } } });
    await expect(second).resolves.toEqual({ type: 'push_value' });
    await expect(first).resolves.toEqual({ type: 'get_value', value: { type: 'string', value: 'gpt' } });
    expect(client.inFlight).toBe(0);
  });

  it("rejects with a RuntimeApiError carrying the run's message; unknown req_ids and other clients' requests are ignored", async () => {
    const { client, sent } = recordingClient();
    const refused = client.request({ type: 'subscribe', node_id: 'nope', pad_id: 'x' });
    await Promise.resolve();
    client.receive({ type: 'complete', req_id: 'someone-else', payload: { type: 'subscribe' } });
    client.receive({ type: 'request', req_id: 'x', payload: { type: 'get_value', node_id: 'a', pad_id: 'b' } });
    client.receive({ type: 'complete', req_id: sent[0]!.req_id, error: "node 'nope' not found" });
    const error = await refused.catch((caught: unknown) => caught);
    expect(RuntimeApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ request: 'subscribe', message: "node 'nope' not found", name: 'RuntimeApiError' });
  });

  it('times out without an ack, and again without a complete after the ack', async () => {
    vi.useFakeTimers();
    const { client, sent } = recordingClient({ ackTimeoutMs: 100, completeTimeoutMs: 1000 });
    const unanswered = client.request({ type: 'get_value', node_id: 'a', pad_id: 'b' }).catch((error: unknown) => error);
    const acknowledged = client.request({ type: 'get_value', node_id: 'a', pad_id: 'c' }).catch((error: unknown) => error);
    await Promise.resolve();
    client.receive({ type: 'ack', req_id: sent[1]!.req_id });
    await vi.advanceTimersByTimeAsync(150);
    const first = await unanswered;
    expect(TimeoutError.isInstance(first)).toBe(true);
    expect((first as Error).message).toContain('did not acknowledge');
    expect(client.inFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    const second = await acknowledged;
    expect(TimeoutError.isInstance(second)).toBe(true);
    expect((second as Error).message).toContain('did not complete');
  });

  it("aborts with the caller's signal, fails everything when the connection ends, and reports send failures", async () => {
    const { client } = recordingClient();
    const controller = new AbortController();
    const aborted = client.request({ type: 'get_value', node_id: 'a', pad_id: 'b' }, { signal: controller.signal }).catch((error: unknown) => error);
    controller.abort();
    expect(AbortError.isInstance(await aborted)).toBe(true);
    await expect(client.request({ type: 'get_value', node_id: 'a', pad_id: 'b' }, { signal: controller.signal })).rejects.toSatisfy((error) =>
      AbortError.isInstance(error),
    );
    const pending = client.request({ type: 'get_value', node_id: 'a', pad_id: 'b' });
    client.failAll(new ConnectionError('closed', "the run's connection ended"));
    await expect(pending).rejects.toThrow("the run's connection ended");

    const offline = recordingClient({ send: () => Promise.reject(new ConnectionError('closed', 'cannot send data while not_connected')) });
    await expect(offline.client.request({ type: 'get_value', node_id: 'a', pad_id: 'b' })).rejects.toThrow('cannot send data while not_connected');
    expect(offline.client.inFlight).toBe(0);
  });

  it("hands the run's events over as they come", () => {
    const { client, events } = recordingClient();
    client.receive({ type: 'event', payload: { type: 'value', node_id: 'stt', pad_id: 'text', value: { type: 'string', value: 'hello' } } });
    client.receive({ type: 'event', payload: { type: 'logs', items: [{ message: 'started', level: 'info', timestamp: '2026-01-01T00:00:00Z' }] } });
    expect(events).toEqual([
      { type: 'value', node_id: 'stt', pad_id: 'text', value: { type: 'string', value: 'hello' } },
      { type: 'logs', items: [{ message: 'started', level: 'info', timestamp: '2026-01-01T00:00:00Z' }] },
    ]);
  });
});
