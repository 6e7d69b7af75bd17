import type { Page } from '@playwright/test';
import { graphOf } from '@palaver/sdk-core/testing';
import { MIC_TONE_HZ, chromiumAvailable, eventually, expect, test } from './support/connector-fixture.js';
import { usageToken } from './support/usage-token.js';

test.skip(!chromiumAvailable(), 'Chromium is not installed');

const snapshot = (page: Page) => page.evaluate(() => window.appRun.snapshot());
const recorded = (page: Page) => page.evaluate(() => window.appRun.recorded());

test('a run from a graph: the microphone feeds the Publish node it names, and the Output plays it back', async ({ palaver, newPage }) => {
  // Two Publish nodes; only `linked` reaches the Output.
  const graph = graphOf(
    [
      { id: 'linked', type: 'Publish' },
      { id: 'unlinked', type: 'Publish' },
      { id: 'output', type: 'Output' },
    ],
    [{ from: 'linked.audio', to: 'output.audio' }],
  );
  const baseUrl = palaver.server.url!;

  const silent = await newPage('app-run');
  const token = await usageToken(palaver.server);
  const joined = await silent.evaluate(([url, options]) => window.appRun.connect(url, options, { publishNode: 'unlinked' }), [
    baseUrl,
    { token, graph },
  ] as const);
  expect(joined).toMatchObject({ ok: true, snapshot: { status: 'connected', connectionState: 'connected', runId: expect.any(String) } });
  await eventually(async () => expect((await snapshot(silent)).microphone).toEqual({ wanted: true, enabled: true }));
  // Its microphone went to `unlinked`: nothing comes back.
  expect(await silent.evaluate(() => window.appRun.agentLevel(1500))).toBeLessThan(0.01);
  // Pushes are typed by the graph the run was created from, and checked before any round trip.
  expect(await silent.evaluate(() => window.appRun.push('nope', 'audio', 1))).toEqual({
    ok: false,
    error: { name: 'TypeError', message: "the run's graph has no node 'nope'" },
  });
  await silent.evaluate(() => window.appRun.disconnect());

  const echoed = await newPage('app-run');
  const again = await echoed.evaluate(([url, options]) => window.appRun.connect(url, options, { publishNode: 'linked' }), [
    baseUrl,
    { token: await usageToken(palaver.server), graph },
  ] as const);
  expect(again.ok).toBe(true);
  await eventually(async () => expect((await snapshot(echoed)).agentAudio).toBe(true), 10_000);
  const heard = await echoed.evaluate((frequency) => window.appRun.measureAgentTone(frequency, 1500), MIC_TONE_HZ);
  console.log(
    `echo through the linked Publish node: peak ${heard.peakFrequency.toFixed(0)} Hz, tone ${heard.toneDb.toFixed(1)} dB over a floor of ${heard.floorDb.toFixed(1)} dB`,
  );
  expect(Math.abs(heard.peakFrequency - MIC_TONE_HZ)).toBeLessThan(30);
  expect(heard.toneDb - heard.floorDb).toBeGreaterThan(20);
  expect(await echoed.evaluate(() => window.appRun.disconnect())).toMatchObject({ status: 'not_connected', ended: 'client' });
});

test('the typed chat example through the runtime API from Chromium: push, subscribe, get, list, refusals, and the answer heard', async ({
  palaver,
  newPage,
}) => {
  const page = await newPage('app-run');
  const token = await usageToken(palaver.server);
  // Subscribed before connecting: sent once in the room.
  const joined = await page.evaluate(
    async ([url, options]) => {
      const connecting = window.appRun.connect(url, options, { microphone: false });
      return connecting;
    },
    [palaver.server.url!, { token, app: 'app_example_typed_chat' }] as const,
  );
  expect(joined.ok).toBe(true);
  await page.evaluate(() => {
    window.appRun.subscribe('context', 'source');
    window.appRun.subscribe('tts', 'complete_transcription');
    window.appRun.subscribe('nope', 'x');
  });
  // A property pad's current value arrives at once; a refused subscription is an error of the run.
  await eventually(async () => expect((await snapshot(page)).values['context.source']).toMatchObject({ type: 'list', count: 1 }));
  await eventually(async () => expect((await recorded(page)).errors).toContainEqual({ name: 'RuntimeApiError', message: "node 'nope' not found in this run" }));

  // A plain string pushed into the ChatInput: the LLM answers, the TTS speaks it, the page hears it.
  expect(await page.evaluate(() => window.appRun.push('chat', 'output', 'What is the weather like today?'))).toEqual({ ok: true, value: null });
  const level = await page.evaluate(() => window.appRun.agentLevel(6000));
  console.log(`typed chat answer heard at level ${level.toFixed(3)}`);
  expect(level).toBeGreaterThan(0.01);
  await eventually(
    async () => expect((await snapshot(page)).values['tts.complete_transcription']).toMatchObject({ type: 'string', value: expect.stringMatching(/\S/) }),
    20_000,
  );
  const context = (await snapshot(page)).values['context.source'] as { items: Array<{ role: { value: string } }> };
  expect(context.items.map((item) => item.role.value)).toEqual(['system', 'user', 'assistant']);

  expect(await page.evaluate(() => window.appRun.get('system_prompt', 'content'))).toEqual({
    ok: true,
    value: { type: 'string', value: expect.stringContaining('helpful assistant') },
  });
  const items = await page.evaluate(() => window.appRun.list('context', 'source'));
  expect(items).toMatchObject({ ok: true, value: [{ type: 'context_message' }, { type: 'context_message' }, { type: 'context_message' }] });
  expect(await page.evaluate(() => window.appRun.push('nope', 'x', 'hi'))).toEqual({
    ok: false,
    error: { name: 'RuntimeApiError', message: expect.stringContaining("node 'nope' not found") },
  });
  expect(await page.evaluate(() => window.appRun.get('chat', 'nope'))).toMatchObject({ ok: false, error: { name: 'RuntimeApiError' } });

  // Unsubscribed: its value leaves the snapshot and no more events come for it.
  await page.evaluate(() => window.appRun.unsubscribe('context', 'source'));
  expect((await snapshot(page)).values['context.source']).toBeUndefined();
  const before = (await recorded(page)).values.filter((value) => value.node === 'context').length;
  await page.evaluate(() => window.appRun.push('chat', 'output', 'And tomorrow?'));
  await eventually(
    async () => expect((await recorded(page)).values.filter((value) => value.pad === 'complete_transcription').length).toBeGreaterThan(1),
    20_000,
  );
  expect((await recorded(page)).values.filter((value) => value.node === 'context').length).toBe(before);

  expect(await page.evaluate(() => window.appRun.disconnect())).toMatchObject({ status: 'not_connected', ended: 'client' });
  expect((await recorded(page)).statuses).toEqual(['connecting', 'connected', 'not_connected']);
});

test("a ToolGroup's client_app tool is answered by the page that runs the app", async ({ palaver, newPage }) => {
  const created = await palaver.server.fetch(
    new Request('http://palaver.test/v1/tool', {
      method: 'POST',
      headers: { 'x-api-key': palaver.server.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'show_banner',
        description: 'Shows the welcome banner in the app.',
        parameters: [],
        call_settings: { destination: { type: 'client_app' } },
      }),
    }),
  );
  expect(created.status).toBe(200);
  // A typed chat whose LLM has the tool: ChatInput -> user message -> context -> LLM (ToolGroup), answers back into the context.
  const graph = graphOf(
    [
      { id: 'chat', type: 'ChatInput' },
      { id: 'user_message', type: 'CreateContextMessage', values: { role: 'user' } },
      { id: 'system_prompt', type: 'ContextMessage', values: { role: 'system', content: 'Use your tools.' } },
      { id: 'context', type: 'LLMContext', values: { num_inserts: 2 } },
      { id: 'on_user_message', type: 'AutoConvert' },
      { id: 'llm', type: 'OpenAICompatibleLLM' },
      { id: 'tools', type: 'ToolGroup', values: { tools: ['show_banner'] } },
    ],
    [
      { from: 'chat.output', to: 'user_message.content' },
      { from: 'user_message.context_message', to: 'context.insert_0' },
      { from: 'system_prompt.context_message', to: 'context.system_message' },
      { from: 'context.source', to: 'llm.context' },
      { from: 'context.new_user_message', to: 'on_user_message.sink' },
      { from: 'on_user_message.source', to: 'llm.run_trigger' },
      { from: 'llm.context_message', to: 'context.insert_1' },
      { from: 'tools.self', to: 'llm.tool_group' },
    ],
  );
  const page = await newPage('app-run');
  const joined = await page.evaluate(([url, options]) => window.appRun.connect(url, options, { microphone: false }), [
    palaver.server.url!,
    { token: await usageToken(palaver.server), graph },
  ] as const);
  expect(joined.ok).toBe(true);
  await page.evaluate(() => window.appRun.subscribe('context', 'source'));
  expect(await page.evaluate(() => window.appRun.push('chat', 'output', 'Please show the welcome banner.'))).toMatchObject({ ok: true });
  await eventually(async () => expect((await recorded(page)).toolCalls).toHaveLength(1), 20_000);
  // The page's answer went back to the model: the context holds the call, the tool's result and the summary.
  await eventually(async () => {
    const context = (await snapshot(page)).values['context.source'] as
      { items: Array<{ role: { value: string }; content: Array<{ text?: string }> }> } | undefined;
    const last = context?.items.at(-1);
    expect(last?.role.value).toBe('assistant');
    expect(last?.content.map((item) => item.text).join('')).toContain('Welcome aboard');
  }, 20_000);
  await page.evaluate(() => window.appRun.disconnect());
});
