import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { AUDIBLE_RMS, HumanParticipant, fliteSpeech } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { dominantFrequency, sineTone } from '../../src/testing/tone-analysis.js';
import { RuntimeApiProbe } from './runtime-api-probe.js';
import { graphOf } from '../../src/testing/graph-kit.js';

describe('app runs: templates run in their rooms, with the runtime API', () => {
  let test: TestServer;
  let humans = 0;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  async function runTemplate(template: string, overrides: Parameters<TestServer['client']['appRuns']['create']>[0]['overrides'] = []) {
    const app = await test.client.appTemplates.apply(template, { name: `${template} ${humans}` });
    const run = await test.client.appRuns.create({ app: app.id, overrides });
    const identity = `human-run-${humans++}`;
    const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, identity);
    const probe = new RuntimeApiProbe(human.connection);
    return { app, run, human, probe };
  }

  it('Echo: what the human publishes comes back on the Output track', async () => {
    const { run, human } = await runTemplate('app_template_echo');
    expect(run.app_run).toMatchObject({ app: expect.any(String), version: 1 });
    expect(run.connection_details).toMatchObject({ url: expect.stringMatching(/^ws/), token: expect.any(String) });
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    const tone = sineTone(440, 16_000, 1000, 0.5);
    const sentAt = performance.now();
    await human.say({ pcm: tone, speechEndMs: 1000 }, 300);
    await eventually(() => expect(human.firstAudibleAfter(sentAt)).toBeDefined(), 10_000);
    // What came back is the tone: 440 Hz, not another of the candidates.
    const heardAt = human.firstAudibleAfter(sentAt)!.at;
    await eventually(() => expect(human.audioBetween(heardAt, Number.POSITIVE_INFINITY).length).toBeGreaterThanOrEqual(48_000 / 2), 10_000);
    expect(dominantFrequency(human.audioBetween(heardAt, Number.POSITIVE_INFINITY).subarray(0, 48_000 / 2), 48_000, [440, 880, 1000, 220]).frequency).toBe(440);
    await human.leave();
  });

  it('push_pad_value over REST and the runtime API: typed chat answers aloud, values reach subscribers, debug shows live values', async () => {
    const examples = await test.client.apps.examples();
    const typed = examples.find((example) => example.id === 'app_example_typed_chat')!;
    const run = await test.client.appRuns.create({ app: typed.id });
    const identity = `human-run-${humans++}`;
    const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, identity);
    const probe = new RuntimeApiProbe(human.connection);
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    expect(await probe.request({ type: 'subscribe', node_id: 'context', pad_id: 'source' })).toEqual({ type: 'subscribe' });
    expect(await probe.request({ type: 'subscribe', node_id: 'tts', pad_id: 'complete_transcription' })).toEqual({ type: 'subscribe' });
    const sentAt = performance.now();
    await test.client.appRuns.pushPadValue(run.app_run.id, {
      node: 'chat',
      pad: 'output',
      value: { type: 'string', value: 'What is the weather like today?' },
    });
    await eventually(() => expect(human.firstAudibleAfter(sentAt)).toBeDefined(), 20_000);
    await eventually(() => expect(probe.values('tts', 'complete_transcription').length).toBeGreaterThan(0), 20_000);
    const contexts = probe.values('context', 'source') as { type: string; items: { role: { value: string } }[] }[];
    expect(contexts.at(-1)!.items.map((item) => item.role.value)).toEqual(['system', 'user', 'assistant']);
    // The same through the runtime API.
    await probe.request({ type: 'push_value', node_id: 'chat', pad_id: 'output', value: { type: 'string', value: 'And tomorrow?' } });
    await eventually(() => expect((probe.values('context', 'source').at(-1) as { items: unknown[] }).items).toHaveLength(5), 20_000);
    const got = (await probe.request({ type: 'get_value', node_id: 'system_prompt', pad_id: 'content' })) as { value: unknown };
    expect(got.value).toEqual({ type: 'string', value: expect.stringContaining('helpful assistant') });
    const items = (await probe.request({ type: 'get_list_items', node_id: 'context', pad_id: 'source' })) as { items: unknown[] };
    expect(items.items).toHaveLength(5);
    await expect(probe.request({ type: 'get_value', node_id: 'nope', pad_id: 'x' })).rejects.toThrow(/node 'nope' not found/);
    const debug = await test.client.appRuns.debug({ run_id: run.app_run.id });
    const content = (debug.graph.nodes as { id: string; pads: { id: string; value: unknown }[] }[])
      .find((node) => node.id === 'system_prompt')!
      .pads.find((pad) => pad.id === 'content');
    expect(content?.value).toEqual({ type: 'string', value: expect.stringContaining('helpful assistant') });
    expect(debug.connection_details.token).toEqual(expect.any(String));
    // Wrong value types are refused, naming the pad.
    await expect(
      test.client.appRuns.pushPadValue(run.app_run.id, { node: 'context', pad: 'max_non_system_messages', value: { type: 'string', value: 'many' } }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/node 'context' pad 'max_non_system_messages'/),
    });
    await expect(test.client.appRuns.pushPadValue(run.app_run.id, { node: 'ghost', pad: 'x', value: { type: 'string', value: 'a' } })).rejects.toMatchObject({
      status: 404,
    });
    await human.leave();
  });

  it('SileroVAD on a Publish node: speech started and ended triggers and the clip; ButtonTrigger fires what it is linked to', async () => {
    const graph = graphOf(
      [
        { id: 'publish', type: 'Publish' },
        { id: 'vad', type: 'SileroVAD', values: { silence_duration_ms: 400 } },
        { id: 'button', type: 'ButtonTrigger' },
        { id: 'count', type: 'Integer' },
      ],
      [
        { from: 'publish.audio', to: 'vad.audio' },
        { from: 'button.trigger', to: 'count.increment' },
      ],
    );
    const run = await test.client.appRuns.createFromGraph({ graph });
    const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, `human-run-${humans++}`);
    const probe = new RuntimeApiProbe(human.connection);
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    for (const pad of ['speech_started_trigger', 'speech_ended_trigger', 'audio_clip']) await probe.request({ type: 'subscribe', node_id: 'vad', pad_id: pad });
    await probe.request({ type: 'subscribe', node_id: 'publish', pad_id: 'audio_enabled' });
    const speech = await fliteSpeech(test.server.services.speech, 'Please call me tomorrow morning.');
    await human.say(speech, 1200);
    await eventually(() => expect(probe.values('vad', 'speech_ended_trigger').length).toBeGreaterThan(0), 10_000);
    expect(probe.values('vad', 'speech_started_trigger')[0]).toEqual({ type: 'trigger' });
    const clip = probe.values('vad', 'audio_clip')[0] as { type: string; duration: number };
    expect(clip.type).toBe('audio_clip');
    expect(clip.duration).toBeGreaterThan(0.8);
    expect(probe.values('publish', 'audio_enabled')).toContainEqual({ type: 'boolean', value: true });
    await test.client.appRuns.pushPadValue(run.app_run.id, { node: 'button', pad: 'trigger', value: { type: 'boolean', value: true } });
    await probe.request({ type: 'push_value', node_id: 'button', pad_id: 'trigger', value: { type: 'trigger' } });
    expect(await probe.request({ type: 'get_value', node_id: 'count', pad_id: 'value' })).toEqual({ type: 'get_value', value: { type: 'integer', value: 2 } });
    await human.leave();
  });

  it('a failing node is logged and told to the human; the run and the server go on', async () => {
    const examples = await test.client.apps.examples();
    const typed = examples.find((example) => example.id === 'app_example_typed_chat')!;
    const run = await test.client.appRuns.create({
      app: typed.id,
      overrides: [{ node: 'llm', pad: 'model', value: { type: 'string', value: 'no-such-llm' } }],
    });
    const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, `human-run-${humans++}`);
    const probe = new RuntimeApiProbe(human.connection);
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    await test.client.appRuns.pushPadValue(run.app_run.id, { node: 'chat', pad: 'output', value: { type: 'string', value: 'Hello?' } });
    await eventually(() => expect(human.errors.join('\n')).toMatch(/OpenAICompatibleLLM node 'llm' failed: .*no-such-llm/), 10_000);
    await eventually(() => expect(probe.logs().join('\n')).toMatch(/error llm: the LLM did not answer/), 10_000);
    // Still running: the system prompt can be read and changed.
    await test.client.appRuns.pushPadValue(run.app_run.id, { node: 'system_prompt', pad: 'content', value: { type: 'string', value: 'Be brief.' } });
    expect(await probe.request({ type: 'get_value', node_id: 'system_prompt', pad_id: 'content' })).toEqual({
      type: 'get_value',
      value: { type: 'string', value: 'Be brief.' },
    });
    await human.leave();
  });

  it.skipIf(!pocketsphinxAvailable())(
    'Simple Voice AI: a human speaking hears the answer',
    async () => {
      const { human, probe } = await runTemplate('app_template_simple_voice_ai');
      await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
      await probe.request({ type: 'subscribe', node_id: 'stt', pad_id: 'final_transcription' });
      const speech = await fliteSpeech(test.server.services.speech, 'What is the weather like today?');
      const { speechEndedAt } = await human.say(speech, 1500);
      await eventually(() => expect(probe.values('stt', 'final_transcription').length).toBeGreaterThan(0), 20_000);
      await eventually(() => expect(human.firstAudibleAfter(speechEndedAt)).toBeDefined(), 20_000);
      await human.leave();
    },
    60_000,
  );

  it.skipIf(!pocketsphinxAvailable())(
    'Simple Voice AI barge-in: the human speaking cancels the answer being spoken and the queued audio stops',
    async () => {
      const { run, human, probe } = await runTemplate('app_template_simple_voice_ai');
      await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
      await probe.request({ type: 'subscribe', node_id: 'stt', pad_id: 'speech_started' });
      await probe.request({ type: 'subscribe', node_id: 'tts', pad_id: 'complete_transcription' });
      const long = Array.from({ length: 12 }, (_, index) => `This is sentence number ${index + 1} of a long answer that takes a while to say.`).join(' ');
      const speakingFrom = performance.now();
      await test.client.appRuns.pushPadValue(run.app_run.id, { node: 'tts', pad: 'text', value: { type: 'string', value: long } });
      await eventually(() => expect(human.firstAudibleAfter(speakingFrom)).toBeDefined(), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const speech = await fliteSpeech(test.server.services.speech, 'Stop please, I would like to ask you something else now.');
      const saying = human.say(speech, 1500);
      const speechStartedAt = performance.now() + speech.speechStartMs;
      await eventually(() => expect(probe.values('stt', 'speech_started').length).toBeGreaterThan(0), 10_000);
      const { speechEndedAt } = await saying;
      // The agent went quiet while the human was still speaking and stayed quiet until they finished (an answer to them
      // comes after their turn). How soon: `pnpm bench app-runtime`, barge-in.
      const lastLoud = human.lastAudibleBeforeQuiet(speechStartedAt);
      expect(lastLoud).toBeDefined();
      expect(lastLoud!.at).toBeLessThan(speechEndedAt);
      expect(human.heard.filter((frame) => frame.rms > AUDIBLE_RMS && frame.at > lastLoud!.at && frame.at <= speechEndedAt)).toEqual([]);
      // The TTS reports what it spoke of the long text.
      await eventually(() => expect(probe.values('tts', 'complete_transcription').length).toBeGreaterThan(0), 10_000);
      const spoken = (probe.values('tts', 'complete_transcription')[0] as { value: string }).value;
      expect(long.startsWith(spoken.slice(0, 40))).toBe(true);
      await human.leave();
    },
    60_000,
  );

  it.skipIf(!pocketsphinxAvailable())(
    "Voice AI with tools: the LLM calls the project's web_request tool and the human hears the answer",
    async () => {
      const calls: unknown[] = [];
      const toolServer = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          calls.push(JSON.parse(body));
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ forecast: 'sunny', temperature_c: 21 }));
        });
      });
      await new Promise<void>((resolve) => toolServer.listen(0, '127.0.0.1', resolve));
      const port = (toolServer.address() as AddressInfo).port;
      await test.client.tools.create({
        name: 'get_weather',
        description: 'The weather forecast for today.',
        parameters: [],
        call_settings: { destination: { type: 'web_request', url: `http://127.0.0.1:${port}/weather` } },
      });
      const { human, probe } = await runTemplate('app_template_voice_ai_tools');
      await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
      await probe.request({ type: 'subscribe', node_id: 'llm', pad_id: 'tool_calls_finished' });
      const speech = await fliteSpeech(test.server.services.speech, 'What is the weather like today?');
      const { speechEndedAt } = await human.say(speech, 1500);
      await eventually(() => expect(calls).toHaveLength(1), 20_000);
      expect(calls[0]).toMatchObject({ tool: 'get_weather' });
      await eventually(() => expect(probe.values('llm', 'tool_calls_finished')).toHaveLength(1), 20_000);
      await eventually(() => expect(human.firstAudibleAfter(speechEndedAt)).toBeDefined(), 20_000);
      await human.leave();
      toolServer.close();
    },
    60_000,
  );

  it.skipIf(!pocketsphinxAvailable())(
    'Voice AI in a sub graph: the SubGraph node runs the voice pipeline; its pads carry audio and transcriptions',
    async () => {
      const { human, probe } = await runTemplate('app_template_voice_ai_subgraph', [
        { node: 'voice', pad: 'system_prompt', value: { type: 'string', value: 'You answer in one short sentence.' } },
      ]);
      await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
      await probe.request({ type: 'subscribe', node_id: 'voice', pad_id: 'transcription' });
      expect(await probe.request({ type: 'get_value', node_id: 'voice', pad_id: 'system_prompt' })).toEqual({
        type: 'get_value',
        value: { type: 'string', value: 'You answer in one short sentence.' },
      });
      const speech = await fliteSpeech(test.server.services.speech, 'What is the weather like today?');
      const { speechEndedAt } = await human.say(speech, 1500);
      await eventually(() => expect(probe.values('voice', 'transcription')).toEqual([{ type: 'string', value: expect.stringMatching(/weather/i) }]), 20_000);
      await eventually(() => expect(human.firstAudibleAfter(speechEndedAt)).toBeDefined(), 20_000);
      await human.leave();
    },
    60_000,
  );
});
