import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../../../../../contract/chat.js';
import { TRIGGER, contextMessageText, textContextMessage, type GraphContextMessage } from '../../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun } from '../../../../../testing/graph-kit.js';
import type { ChatStreamEvent } from '../../../../kernel/ports/chat.js';
import { RuntimeSinkPad } from '../../../runtime/pads.js';
import type { GraphEngines } from '../../../runtime/run-environment.js';
import { validateGraph } from '../../../validation/validate-graph.js';
import { startHttpCalculator } from './fixtures/http-calculator.js';
import { mcpClientOf } from './mcp-connections.js';
import { platformNodeLibrary } from '../../node-library.js';

let calculator: Awaited<ReturnType<typeof startHttpCalculator>>;
let url: string;
beforeAll(async () => {
  calculator = await startHttpCalculator();
  url = calculator.url;
});
afterAll(() => calculator.close());

type Delta = ChatCompletionChunk['choices'][number]['delta'];
function chunk(delta: Partial<Delta>, finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatStreamEvent {
  const full: Delta = { role: 'assistant', content: null, ...delta };
  return {
    type: 'chunk',
    chunk: { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [{ index: 0, delta: full, finish_reason: finish }] },
  };
}

/** The chat gateway's seam: first asks for `add(2, 3)`, then answers with the tool's result. */
function scriptedChat(requests: ChatCompletionRequest[]): GraphEngines['chat'] {
  return {
    stream: async (_principal, request) => {
      requests.push(request);
      const result = request.messages.find((message) => message.role === 'tool');
      const events = result
        ? [chunk({ content: `It is ${typeof result.content === 'string' ? result.content : '?'}.` }), chunk({}, 'stop')]
        : [
            chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] }),
            chunk({}, 'tool_calls'),
          ];
      return (async function* () {
        yield* events;
      })();
    },
  };
}

function llmGraph(mcpServer: string) {
  return graphOf(
    [
      { id: 'mcp', type: 'MCP', values: { mcp_server: mcpServer } },
      { id: 'llm', type: 'OpenAICompatibleLLM', values: { context: [textContextMessage('user', 'What is 2 + 3?')] } },
    ],
    [{ from: 'mcp.self', to: 'llm.mcp_server_0' }],
  );
}

const runs: GraphKitRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.stop();
});

function untilValue(run: GraphKitRun, path: string): Promise<unknown> {
  return new Promise((resolve) => run.pad(path).onValue((value) => resolve(value)));
}

describe('MCP', () => {
  it("offers the server's tools to the LLM linked by mcp_server_0 and calls them through the MCP client", async () => {
    const document = llmGraph(url);
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
    const requests: ChatCompletionRequest[] = [];
    const run = runGraph(document, { engines: { chat: scriptedChat(requests), toolAddressPolicy: { allowLoopback: true, allowPrivateNetworks: false } } });
    runs.push(run);
    const messages = run.record('llm.context_message');
    const finished = untilValue(run, 'llm.finished');
    (run.pad('llm.run_trigger') as RuntimeSinkPad).receive(TRIGGER);
    await finished;
    expect(run.failures).toEqual([]);
    expect(requests[0]?.tools).toEqual([
      expect.objectContaining({
        type: 'function',
        function: expect.objectContaining({
          name: 'add',
          description: 'Adds two numbers',
          parameters: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
        }),
      }),
    ]);
    const said = messages as GraphContextMessage[];
    expect(said.map((message) => [message.role.value, contextMessageText(message)])).toEqual([
      ['assistant', ''],
      ['tool', '5'],
      ['assistant', 'It is 5.'],
    ]);
    expect(said[0]?.tool_calls).toEqual([expect.objectContaining({ call_id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } })]);
  });

  it('reaches a server the operator configured by name: streamable HTTP by URL, or a program over stdio', async () => {
    const stdio = { command: process.execPath, args: [fileURLToPath(new URL('./fixtures/stdio-calculator.mjs', import.meta.url))] };
    for (const [name, tool] of [
      ['calculator', 'add'],
      ['local', 'multiply'],
    ] as const) {
      const run = runGraph(llmGraph(name), {
        engines: {
          chat: scriptedChat([]),
          mcpServers: { calculator: { url }, local: stdio },
          toolAddressPolicy: { allowLoopback: true, allowPrivateNetworks: false },
        },
      });
      runs.push(run);
      const client = await mcpClientOf(run.runtime.nodes.get('mcp')!.environment, 'mcp');
      const { tools } = await client!.listTools();
      expect(tools.map((listed) => listed.name)).toEqual([tool]);
      const result = await client!.callTool({ name: tool, arguments: { a: 4, b: 5 } });
      expect(result.content).toEqual([{ type: 'text', text: tool === 'add' ? '9' : '20' }]);
      expect(run.failures).toEqual([]);
    }
  });

  it("refuses a server address the platform's outbound policy refuses (loopback here), failing the node", async () => {
    const run = runGraph(llmGraph(url), { engines: { chat: scriptedChat([]) } });
    runs.push(run);
    await expect.poll(() => run.failures.length).toBe(1);
    expect(run.failures[0]).toMatchObject({ node: 'mcp', error: expect.objectContaining({ message: expect.stringMatching(/loopback|refus/i) }) });
  });

  it('refuses a server name the operator did not configure: a graph cannot start a program', async () => {
    const run = runGraph(llmGraph('filesystem'), { engines: { chat: scriptedChat([]) } });
    runs.push(run);
    await expect.poll(() => run.failures.length).toBe(1);
    expect(run.failures[0]?.error.message).toBe(
      "no MCP server named 'filesystem' is configured on this server (graph.mcpServers), and the run has no room for a proxy",
    );
  });
});
