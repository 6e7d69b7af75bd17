import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDataPacket, type ToolCallMessage } from '../../src/contract/sdk.js';
import type { CreateToolDefinitionRequest, ToolDefinition } from '../../src/contract/tools.js';
import { ClientToolRunner, type ClientToolHandler } from '../../src/realtime/client-tools.js';
import type { AgentSessionHandle, AgentSessionHost } from '../../src/server/kernel/ports/agent-session-host.js';
import type { VoiceAgentHostDependencies } from '../../src/server/agent/voice-agent-host.js';
import { startFakeOpenAiUpstream, textChunks, toolCallChunks } from '../../src/testing/fake-openai-upstream.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { AUDIBLE_RMS, agentHostFor, HumanParticipant, RecordedEvents, sessionSpec } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';

/**
 * A tool URL on 127.0.0.1: records each POST body and answers with `answer` (after `delayMs`), or never (`hold`):
 * `abandoned` counts the requests whose caller closed them before an answer.
 */
async function startToolEndpoint(answer: { status?: number; type: string; body: string; delayMs?: number; hold?: boolean }) {
  const bodies: unknown[] = [];
  let abandoned = 0;
  const server: Server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    response.on('close', () => {
      if (!response.writableFinished) abandoned += 1;
    });
    request.on('end', () => {
      bodies.push({ method: request.method, contentType: request.headers['content-type'], body: JSON.parse(text) as unknown });
      if (answer.hold) return;
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(answer.status ?? 200, { 'content-type': answer.type });
        response.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tools/call`,
    bodies,
    get abandoned() {
      return abandoned;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The human's app side of client tools: every `tool_call` message it got, and (optionally) handlers answering them. */
function clientToolsOf(human: HumanParticipant, handlers: Record<string, ClientToolHandler> | undefined) {
  const received: ToolCallMessage[] = [];
  const runner = new ClientToolRunner((message, agent) =>
    human.connection.sendData(JSON.stringify(message), { topic: 'tool_call', destinationIdentities: [agent] }),
  );
  for (const [name, handler] of Object.entries(handlers ?? {})) runner.register(name, handler);
  human.connection.on('data', (data) => {
    const packet = parseDataPacket(data.topic, new TextDecoder().decode(data.payload));
    if (packet?.topic !== 'tool_call') return;
    received.push(packet.payload);
    if (!handlers) return;
    if (packet.payload.type === 'tool_call_request') void runner.start(packet.payload.payload, data.from ?? 'agent');
    if (packet.payload.type === 'cancel') runner.cancel(packet.payload.call_id);
  });
  return { received };
}

describe('voice agent: tool calls (web_request and client_app) in typed turns', () => {
  let test: TestServer;
  let host: AgentSessionHost;
  let humans = 0;

  function newHost(overrides: Partial<VoiceAgentHostDependencies> = {}): AgentSessionHost {
    return agentHostFor(test, { tuning: { tools: { clientAckTimeoutMs: 600, clientResultTimeoutMs: 4000, webRequestTimeoutMs: 1500 } }, ...overrides });
  }

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    host = newHost();
  });

  afterAll(async () => {
    await host?.close();
    await test?.close();
  });

  async function tool(request: CreateToolDefinitionRequest): Promise<ToolDefinition> {
    return test.client.tools.create(request);
  }

  const weatherTool = (url: string) =>
    tool({
      name: 'get_weather',
      description: 'Current weather of a city',
      parameters: [
        { name: 'city', description: 'The city', type: 'string', required: true },
        { name: 'days', description: 'Days of forecast', type: 'number', required: false, default: '1' },
      ],
      call_settings: { destination: { type: 'web_request', url } },
    });

  const locationTool = () =>
    tool({
      name: 'get_location',
      description: 'Where the user is, from the device',
      parameters: [{ name: 'precise', description: 'GPS precision', type: 'boolean', required: true }],
      call_settings: { destination: { type: 'client_app' } },
    });

  async function setUp(tools: ToolDefinition[], output: { speech_synthesis_enabled?: boolean } = { speech_synthesis_enabled: false }, agentHost = host) {
    const identity = `human-tools-${humans++}`;
    const spec = await sessionSpec(test, identity, { generative: { tool_definitions: tools }, output });
    const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
    const events = new RecordedEvents();
    const handle = await agentHost.start(spec, events);
    await human.waitForState('listening');
    return { spec, human, events, handle };
  }

  async function tearDown(human: HumanParticipant, handle: AgentSessionHandle): Promise<void> {
    await handle.stop();
    await human.leave();
  }

  it('web_request: POSTs {tool, arguments} to the URL, the result reaches the model; calls on the transcription, the exchange committed', async () => {
    const endpoint = await startToolEndpoint({ type: 'application/json', body: JSON.stringify({ forecast: 'sunny and 21 degrees' }) });
    try {
      const { human, events, handle } = await setUp([await weatherTool(endpoint.url)], { speech_synthesis_enabled: true });
      await human.type('Please use get_weather: what is it like in Paris?');
      const expected = 'The get_weather tool returned: {"forecast":"sunny and 21 degrees"}';
      await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([expected]), 30_000);
      expect(endpoint.bodies).toEqual([{ method: 'POST', contentType: 'application/json', body: { tool: 'get_weather', arguments: { city: 'Paris' } } }]);

      // The agent's transcription carried the call from before the answer was spoken, under the same id.
      const versions = human.messages.filter((message) => message.agent);
      const call = { id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } };
      expect(versions[0]).toMatchObject({ text: '', final: false, tool_calls: [call] });
      expect(versions.at(-1)).toMatchObject({ final: true, text: expected, tool_calls: [call] });
      expect(new Set(versions.map((version) => version.id)).size).toBe(1);
      // The answer was spoken.
      expect(human.heard.filter((frame) => frame.rms > AUDIBLE_RMS).length).toBeGreaterThan(25);

      await eventually(() => expect(events.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']));
      const [, calling, result, answer] = events.messages;
      expect(calling).toMatchObject({ role: 'assistant', content: '', tool_calls: [call] });
      expect(result).toEqual({
        role: 'tool',
        content: '{"forecast":"sunny and 21 degrees"}',
        tool_call_id: calling!.tool_calls![0]!.id,
        tool_call_name: 'get_weather',
      });
      expect(answer).toMatchObject({ role: 'assistant', content: expected });

      // The next turn sees the exchange in its history and answers normally (no tool asked for).
      await human.type('Thanks.');
      await eventually(() => expect(human.finalTranscriptions(true)).toHaveLength(2), 30_000);
      expect(human.finalTranscriptions(true)[1]!.tool_calls).toBeUndefined();
      expect(endpoint.bodies).toHaveLength(1);
      await tearDown(human, handle);
    } finally {
      await endpoint.close();
    }
  }, 60_000);

  it('web_request failures are results for the model: an error status, a timeout, an address the policy refuses', async () => {
    const failing = await startToolEndpoint({ status: 503, type: 'text/plain', body: 'down for maintenance' });
    // Never answers: only the agent's own timeout (1.5 s here) ends the call.
    const slow = await startToolEndpoint({ type: 'application/json', body: '{}', hold: true });
    try {
      const broken = await setUp([await weatherTool(failing.url)]);
      await broken.human.type('get_weather in Oslo');
      await eventually(
        () =>
          expect(broken.human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([
            'The get_weather tool returned: {"error":"the tool\'s URL answered 503: down for maintenance"}',
          ]),
        20_000,
      );
      await tearDown(broken.human, broken.handle);

      const timedOut = await setUp([await weatherTool(slow.url)]);
      await timedOut.human.type('get_weather in Rome');
      await eventually(
        () =>
          expect(timedOut.human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([
            'The get_weather tool returned: {"error":"the tool\'s URL did not answer within 1.5 s"}',
          ]),
        20_000,
      );
      // The agent gave up on the request (its connection closed) rather than waiting for an answer that never comes.
      await eventually(() => expect(slow.abandoned).toBe(1));
      await tearDown(timedOut.human, timedOut.handle);

      const strictHost = newHost({ toolAddressPolicy: { allowLoopback: false, allowPrivateNetworks: false } });
      const refused = await setUp([await weatherTool(failing.url)], undefined, strictHost);
      await refused.human.type('get_weather in Bern');
      await eventually(() => expect(refused.human.finalTranscriptions(true)).toHaveLength(1), 20_000);
      expect(refused.human.finalTranscriptions(true)[0]!.text).toMatch(
        /^The get_weather tool returned: \{"error":"the tool's URL was refused: resolves to a loopback address/,
      );
      await tearDown(refused.human, refused.handle);
      await strictHost.close();
      // Only the allowed calls reached the endpoints.
      expect(failing.bodies).toHaveLength(1);
      expect(slow.bodies).toHaveLength(1);
    } finally {
      await failing.close();
      await slow.close();
    }
  }, 60_000);

  it('an upstream model that keeps calling tools: at most 4 rounds, then it must answer (tool_choice none); rounds are one utterance', async () => {
    const upstream = await startFakeOpenAiUpstream();
    const endpoint = await startToolEndpoint({ type: 'application/json', body: '{"ok":true}' });
    try {
      const llm = await test.client.llms.create({
        name: 'tool-happy',
        description: 'always calls tools',
        headers: [],
        model: 'fake-gpt',
        post_url: upstream.chatUrl,
      });
      const round = (index: number) => toolCallChunks([{ id: `call_round_${index}`, name: 'get_weather', argumentFragments: ['{"city":', '"Paris"}'] }]);
      upstream.enqueue(
        { kind: 'stream', chunks: [{ delta: { role: 'assistant', content: 'Let me check.' } }, ...round(1)] },
        { kind: 'stream', chunks: round(2) },
        { kind: 'stream', chunks: round(3) },
        { kind: 'stream', chunks: round(4) },
        { kind: 'stream', chunks: textChunks(['Enough', ' tools.']) },
      );
      const identity = `human-tools-${humans++}`;
      const spec = await sessionSpec(test, identity, {
        generative: { llm, tool_definitions: [await weatherTool(endpoint.url)] },
        output: { speech_synthesis_enabled: false },
      });
      const human = await HumanParticipant.join(test.server.services.media.transport, spec.session.id, identity);
      const events = new RecordedEvents();
      const handle = await host.start(spec, events);
      await human.waitForState('listening');
      await human.type('Weather?');
      await eventually(
        () => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual(['Let me check. Enough tools.']),
        20_000,
      );
      expect(human.finalTranscriptions(true)[0]!.tool_calls!.map((call) => call.id)).toEqual(['call_round_1', 'call_round_2', 'call_round_3', 'call_round_4']);
      expect(endpoint.bodies).toHaveLength(4);
      expect(upstream.requests.map((request) => request.body.tool_choice)).toEqual(['auto', 'auto', 'auto', 'auto', 'none']);
      expect((upstream.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((declared) => declared.function.name)).toEqual(['get_weather']);
      // The last request carried every round: the assistant's calls, each followed by its result.
      const last = upstream.requests[4]!.body.messages as Array<{ role: string; content?: unknown; tool_call_id?: string }>;
      expect(last.map((message) => message.role)).toEqual(['system', 'user', ...Array.from({ length: 4 }, () => ['assistant', 'tool']).flat()]);
      expect(last[2]).toMatchObject({ role: 'assistant', content: 'Let me check.' });
      expect(last[3]).toMatchObject({ role: 'tool', content: '{"ok":true}', tool_call_id: 'call_round_1' });
      await eventually(() =>
        expect(events.messages.map((message) => message.role)).toEqual(['user', ...Array.from({ length: 4 }, () => ['assistant', 'tool']).flat(), 'assistant']),
      );
      await tearDown(human, handle);
    } finally {
      await endpoint.close();
      await upstream.close();
    }
  }, 60_000);

  it('client_app: the request reaches the app (definition + call), its ack and result answer the model', async () => {
    const definition = await locationTool();
    const { human, events, handle } = await setUp([definition]);
    const seenArguments: unknown[] = [];
    const { received } = clientToolsOf(human, {
      get_location: async (args) => {
        seenArguments.push(args);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { city: 'Lisbon' };
      },
    });
    await human.type('Where am I? Call get_location.');
    const expected = 'The get_location tool returned: {"city":"Lisbon"}';
    await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([expected]), 20_000);
    expect(seenArguments).toEqual([{ precise: true }]);
    expect(received).toEqual([
      {
        type: 'tool_call_request',
        payload: {
          type: 'initiate_request',
          tool_definition: expect.objectContaining({ id: definition.id, name: 'get_location', call_settings: definition.call_settings }),
          tool_call: {
            id: expect.stringMatching(/^call_/),
            tool_definition_id: definition.id,
            function: { name: 'get_location', arguments: { precise: true } },
          },
        },
      },
    ]);
    await eventually(() => expect(events.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']));
    expect(events.messages[2]).toMatchObject({ role: 'tool', content: '{"city":"Lisbon"}', tool_call_name: 'get_location' });
    await tearDown(human, handle);
  }, 60_000);

  it('client_app: an app that never acknowledges gets a cancel, and the timeout is the result the model answers with', async () => {
    const { human, events, handle } = await setUp([await locationTool()]);
    const { received } = clientToolsOf(human, undefined);
    await human.type('get_location please');
    // The acknowledgement timeout (0.6 s here) is the one that ended the call, not the result's (4 s): the result says which.
    const expected = 'The get_location tool returned: {"error":"the client app did not acknowledge the tool call within 0.6 s"}';
    await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([expected]), 20_000);
    const request = received[0];
    expect(request?.type).toBe('tool_call_request');
    const callId = request?.type === 'tool_call_request' ? request.payload.tool_call.id : '';
    await eventually(() => expect(received.slice(1)).toEqual([{ type: 'cancel', call_id: callId }]));
    await eventually(() => expect(events.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']));
    expect(events.messages[2]).toMatchObject({ role: 'tool', tool_call_id: callId, content: expect.stringContaining('did not acknowledge') });
    await tearDown(human, handle);
  }, 60_000);

  it('through the platform: a session started over REST with tool ids calls the tool, and the context keeps the exchange', async () => {
    const endpoint = await startToolEndpoint({ type: 'text/plain', body: 'Order 4521 ships on Monday.' });
    try {
      const orderTool = await tool({
        name: 'lookup_order',
        description: 'Status of an order',
        parameters: [{ name: 'order_number', description: 'The order number', type: 'number', required: true }],
        call_settings: { destination: { type: 'web_request', url: endpoint.url } },
      });
      const identity = `human-rest-${humans++}`;
      const client = test.clientWith({ apiKey: test.server.apiKey, humanId: identity });
      const { session } = await client.realtime.start({
        config: {
          general: { save_messages: true },
          input: {},
          output: { speech_synthesis_enabled: false },
          generative: { llm: 'builtin-offline', tool_definitions: [orderTool.id] },
        },
      });
      const human = await HumanParticipant.join(test.server.services.media.transport, session.id, identity);
      try {
        await human.waitForState('listening');
        await human.type('Please lookup_order 4521');
        const expected = 'The lookup_order tool returned: Order 4521 ships on Monday.';
        await eventually(() => expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toEqual([expected]), 20_000);
        expect(endpoint.bodies).toEqual([expect.objectContaining({ body: { tool: 'lookup_order', arguments: { order_number: 4521 } } })]);
        const contextId = session.config.generative.context.id;
        await eventually(async () => {
          const messages = [];
          for await (const message of client.contexts.listMessages(contextId)) messages.push(message);
          expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
          expect(messages[1]).toMatchObject({
            realtime_session: session.id,
            tool_calls: [{ type: 'function', function: { name: 'lookup_order', arguments: { order_number: 4521 } } }],
          });
          expect(messages[2]).toMatchObject({
            content: [{ type: 'text', text: 'Order 4521 ships on Monday.' }],
            tool_call_id: messages[1]!.tool_calls![0]!.id,
            tool_call_name: 'lookup_order',
          });
          expect(messages[3]).toMatchObject({ content: [{ type: 'text', text: expected }] });
        }, 10_000);
      } finally {
        await client.realtime.end(session.id);
        await human.leave();
      }
    } finally {
      await endpoint.close();
    }
  }, 60_000);

  it('client_app: a typed message while the call runs cancels it (the handler sees the abort); the round is not committed', async () => {
    const { human, events, handle } = await setUp([await locationTool()]);
    let aborted = false;
    let started = false;
    const { received } = clientToolsOf(human, {
      get_location: (_args, { signal }) =>
        new Promise((_resolve, reject) => {
          started = true;
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason as Error);
          });
        }),
    });
    await human.type('get_location now');
    await eventually(() => expect(started).toBe(true), 20_000);
    await human.type('Never mind.');
    await eventually(() => expect(aborted).toBe(true), 20_000);
    await eventually(
      () =>
        expect(human.finalTranscriptions(true).map((transcription) => transcription.text)).toContain(
          'You said: "Never mind.". I am the Palaver offline test model, so I can only repeat what I hear.',
        ),
      20_000,
    );
    expect(received.map((message) => message.type)).toEqual(['tool_call_request', 'cancel']);
    await human.waitForState('listening');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The cancelled app sent no result; nothing of the cut round was committed.
    expect(events.messages.map((message) => message.role)).toEqual(['user', 'user', 'assistant']);
    await tearDown(human, handle);
  }, 60_000);
});
