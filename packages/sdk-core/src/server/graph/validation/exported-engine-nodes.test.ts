import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GraphDocument } from '../../../contract/graph/graph-document.js';
import { TRIGGER } from '../../../contract/graph/pad-values.js';
import { runGraph, type GraphKitRun } from '../../../testing/graph-kit.js';
import { platformNodeLibrary } from '../library/node-library.js';
import { startHttpCalculator } from '../library/tools/mcp/fixtures/http-calculator.js';
import { mcpClientOf } from '../library/tools/mcp/mcp-connections.js';
import type { GraphEngines } from '../runtime/run-environment.js';
import { RuntimeSinkPad } from '../runtime/pads.js';
import { validateGraph } from './validate-graph.js';

/**
 * A graph in the open engine's own export format using Entry, Noop, TypeConstraint, StateMachine,
 * EnumSwitchTrigger, EnumSwitchProperty and MCP: the conversation moves from `greeting` to `chatting` when the
 * run starts and to `goodbye` after three turns; an LLM may call the tools of the MCP server `calculator`.
 */
const exported = JSON.parse(readFileSync(new URL('./fixtures/exported-conversation-stages.json', import.meta.url), 'utf8')) as { graph: unknown };

let calculator: Awaited<ReturnType<typeof startHttpCalculator>>;
beforeAll(async () => (calculator = await startHttpCalculator()));
afterAll(() => calculator.close());

/** The operator's MCP server `calculator` (the graph names it), on 127.0.0.1. */
function engines(): Partial<GraphEngines> {
  return { mcpServers: { calculator: { url: calculator.url } }, toolAddressPolicy: { allowLoopback: true, allowPrivateNetworks: false } };
}

const runs: GraphKitRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) {
    expect(run.failures).toEqual([]);
    await run.stop();
  }
});

describe('an exported engine graph with the flow nodes (Entry, Noop, TypeConstraint, StateMachine, enum switches)', () => {
  it('validates', () => {
    const document = GraphDocument.parse(exported.graph);
    expect(new Set(document.nodes.map((node) => node.type))).toEqual(
      new Set(['Entry', 'Noop', 'Integer', 'TypeConstraint', 'StateMachine', 'EnumSwitchTrigger', 'EnumSwitchProperty', 'MCP', 'OpenAICompatibleLLM']),
    );
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
  });

  it('runs: the start moves the machine on, the switches follow its state, a counter ends it', async () => {
    const run = runGraph(GraphDocument.parse(exported.graph), { engines: engines() });
    runs.push(run);
    const fired = { chatting: run.record('enumswitchtrigger_3d9a.chatting'), goodbye: run.record('enumswitchtrigger_3d9a.goodbye') };
    const line = run.record('enumswitchproperty_8e4f.source');
    expect(run.pad('statemachine_9f3b.current_state')).toMatchObject({ value: 'greeting' });
    await new Promise<void>((resolve) => run.pad('entry_5e1a.trigger').onValue(() => resolve()));
    expect(run.pad('statemachine_9f3b.current_state')).toMatchObject({ value: 'chatting' });
    expect(fired.chatting).toEqual([TRIGGER]);
    const set = run.pad('integer_4b8e.set');
    if (!(set instanceof RuntimeSinkPad)) throw new Error('integer_4b8e.set is not a sink');
    set.receive(2);
    expect(fired.goodbye).toEqual([]);
    set.receive(3);
    expect(fired.goodbye).toEqual([TRIGGER]);
    expect(line).toEqual(['Tell me more.', 'Goodbye!']);
    set.receive(-1);
    expect(run.pad('statemachine_9f3b.current_state')).toMatchObject({ value: 'greeting' });
    expect(run.pad('statemachine_9f3b.previous_state')).toMatchObject({ value: 'goodbye' });
    const client = await mcpClientOf(run.runtime.nodes.get('mcp_6b1e')!.environment, 'mcp_6b1e');
    expect((await client!.listTools()).tools.map((tool) => tool.name)).toEqual(['add']);
    expect(run.pad('openaicompatiblellm_0c4d.mcp_server_0')).toMatchObject({ value: 'mcp_6b1e' });
  });
});
