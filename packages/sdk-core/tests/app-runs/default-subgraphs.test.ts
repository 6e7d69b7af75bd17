import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphDocument, GraphPad } from '../../src/contract/graph/graph-document.js';
import { defaultSubGraphs } from '../../src/server/domain/apps/built-in-graphs.js';
import { speechConfigFrom } from '../../src/server/domain/voices/platform-speech.js';
import { createLocalChat } from '../../src/server/engines/llm/index.js';
import { createSpeech, type Speech } from '../../src/server/engines/speech/index.js';
import { platformNodeLibrary } from '../../src/server/graph/library/node-library.js';
import { RuntimeSinkPad } from '../../src/server/graph/runtime/pads.js';
import type { AudioFramePacket } from '../../src/server/graph/runtime/stream-values.js';
import { subgraphPorts } from '../../src/server/graph/runtime/subgraph-interface.js';
import { CLASSIFY_SUBGRAPH_ID, REMOTE_CONVERSATION_SUBGRAPH_ID } from '../../src/server/graph/templates/engine-subgraphs.js';
import { validateGraph } from '../../src/server/graph/validation/validate-graph.js';
import { loadConfig } from '../../src/server/kernel/config.js';
import { fliteSpeech } from '../../src/testing/agent-harness.js';
import { startFakeOpenAiUpstream, textChunks, type FakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';
import { graphOf, runGraph, type GraphKitRun, type KitLink, type KitNode } from '../../src/testing/graph-kit.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';

const subgraphs = new Map(defaultSubGraphs.map((item) => [item.id, item.graph]));
const subgraph = (id: string): GraphDocument => subgraphs.get(id)!;

/** A graph embedding the built-in sub graph `id` as node `id`, its pads as the sub graph's proxies say. */
function embedding(nodeId: string, id: string, nodes: KitNode[], links: KitLink[]): GraphDocument {
  const pads: GraphPad[] = subgraphPorts(subgraph(id), platformNodeLibrary).map((port) => ({
    id: port.id,
    group: port.id,
    type: port.kind,
    default_allowed_types: port.types,
    allowed_types: port.types,
    value: null,
    next_pads: [],
    previous_pad: null,
  }));
  return graphOf([{ id: nodeId, type: 'SubGraph', values: { __subgraph_id__: id } }, ...nodes], links, { [nodeId]: pads });
}

function sink(run: GraphKitRun, path: string): RuntimeSinkPad {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  return pad;
}

const userText = (body: Record<string, unknown>) =>
  (body.messages as Array<{ role: string; content: unknown }>).filter((message) => message.role === 'user').map((message) => JSON.stringify(message.content));

describe("the open engine's default sub graphs", () => {
  let upstream: FakeOpenAiUpstream;
  let speech: Speech;
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    speech = createSpeech(speechConfigFrom(loadConfig({}).speech));
  });

  afterAll(async () => {
    await upstream?.close();
    await speech?.close();
  });

  /** The LLM nodes answered by the fake upstream, through the gateway's machinery. */
  const chat = () => createLocalChat({ baseUrl: upstream.baseUrl, model: 'fake', addressPolicy: { allowLoopback: true, allowPrivateNetworks: false }, logger });

  it('are listed with the voice pipeline and validate, with the engine pad ids', () => {
    expect(defaultSubGraphs.map((item) => item.id)).toEqual(expect.arrayContaining([REMOTE_CONVERSATION_SUBGRAPH_ID, CLASSIFY_SUBGRAPH_ID]));
    for (const item of defaultSubGraphs) expect(validateGraph(item.graph, subgraphs, platformNodeLibrary), item.name).toEqual([]);
    const ids = (id: string) => subgraphPorts(subgraph(id), platformNodeLibrary).map((port) => `${port.id}:${port.kind.replace('Pad', '')}`);
    expect(ids(CLASSIFY_SUBGRAPH_ID).sort()).toEqual(
      [
        'item_in:StatelessSink',
        'video_in:StatelessSink',
        'llm_base_model:PropertySink',
        'llm_api_key:PropertySink',
        'llm_model:PropertySink',
        'detected:PropertySource',
        'classify_llm_respond:PropertySource',
      ].sort(),
    );
    expect(ids(REMOTE_CONVERSATION_SUBGRAPH_ID)).toEqual(
      expect.arrayContaining([
        'audio_in:StatelessSink',
        'run_trigger:StatelessSink',
        'llm_context:PropertySink',
        'audio_out:StatelessSource',
        'new_user_message:StatelessSource',
        'new_assistant_message:StatelessSource',
        'speech_ended_trigger:StatelessSource',
        'transcription:PropertySource',
        'voice_id:PropertySink',
      ]),
    );
  });

  it('Classify: the item goes into the instructions, what is shown is asked about; detected follows the answer', async () => {
    const document = embedding('classify', CLASSIFY_SUBGRAPH_ID, [], []);
    expect(validateGraph(document, subgraphs, platformNodeLibrary)).toEqual([]);
    const run = runGraph(document, { subgraphs, engines: { chat: chat() } });
    try {
      const detected = run.record('classify.detected');
      const answers = run.record('classify.classify_llm_respond');
      const before = upstream.requests.length;
      upstream.enqueue({ kind: 'stream', chunks: textChunks(['true']) }, { kind: 'stream', chunks: textChunks(['false']) });
      sink(run, 'classify.item_in').receive('red umbrella');
      // The item reaches the instructions (Jinja2 renders once its engine is loaded) before anything is shown.
      const systemPrompt = [...run.runtime.allNodes()].find((node) => node.id === 'system_prompt' && node.subgraph === 'classify')!;
      await eventually(() => expect(systemPrompt.value('content')).toContain('Look for this: red umbrella.'), 10_000);
      sink(run, 'classify.video_in').receive('A man walks in the rain under a red umbrella.');
      await eventually(() => expect(detected).toEqual([true]), 10_000);
      expect(answers.at(-1)).toBe('true');
      const asked = upstream.requests[before]!.body;
      const messages = asked.messages as Array<{ role: string; content: unknown }>;
      expect(JSON.stringify(messages[0])).toContain('Look for this: red umbrella.');
      expect(userText(asked)).toEqual([JSON.stringify('A man walks in the rain under a red umbrella.')]);
      sink(run, 'classify.video_in').receive('An empty street.');
      await eventually(() => expect(detected).toEqual([true, false]), 10_000);
      expect(run.failures).toEqual([]);
    } finally {
      await run.stop();
    }
  });

  it.skipIf(!pocketsphinxAvailable())(
    'Conversational AI w/ Remote Inference: speech in, the user message out, the embedding context runs the LLM, its answer spoken',
    async () => {
      const document = embedding(
        'conversation',
        REMOTE_CONVERSATION_SUBGRAPH_ID,
        [
          { id: 'context', type: 'LLMContext', values: { num_inserts: 2 } },
          { id: 'on_user_message', type: 'AutoConvert' },
        ],
        [
          { from: 'conversation.new_user_message', to: 'context.insert_0' },
          { from: 'conversation.new_assistant_message', to: 'context.insert_1' },
          { from: 'context.source', to: 'conversation.llm_context' },
          { from: 'context.new_user_message', to: 'on_user_message.sink' },
          { from: 'on_user_message.source', to: 'conversation.run_trigger' },
        ],
      );
      expect(validateGraph(document, subgraphs, platformNodeLibrary)).toEqual([]);
      const run = runGraph(document, { subgraphs, engines: { chat: chat(), speech } });
      try {
        const audio = run.record('conversation.audio_out') as AudioFramePacket[];
        const transcription = run.record('conversation.transcription');
        const assistant = run.record('conversation.new_assistant_message');
        const ended = run.record('conversation.speech_ended_trigger');
        const before = upstream.requests.length;
        upstream.enqueue({ kind: 'stream', chunks: textChunks(['The train leaves', ' at nine in the morning.']) });
        const said = await fliteSpeech(speech, 'What time does the train leave?');
        const frame = said.sampleRate / 50;
        const padded = new Int16Array(said.pcm.length + said.sampleRate * 2);
        padded.set(said.pcm);
        for (let offset = 0; offset < padded.length; offset += frame) {
          sink(run, 'conversation.audio_in').receive({
            kind: 'runtime:audio',
            frame: { samples: padded.slice(offset, offset + frame), sampleRate: said.sampleRate, channels: 1 },
            origin: 'human',
          });
          await sleep(20);
        }
        await eventually(() => expect(assistant).toHaveLength(1), 20_000);
        expect(ended.length).toBeGreaterThanOrEqual(1);
        expect(String(transcription.at(-1))).toMatch(/train/);
        const asked = upstream.requests.slice(before).at(-1)!.body;
        expect(userText(asked).join(' ')).toMatch(/train/);
        // The answer ('The train leaves at nine in the morning.') is spoken: over a second of audio out.
        const seconds = () =>
          audio.filter((packet) => packet.kind === 'runtime:audio').reduce((sum, packet) => sum + packet.frame.samples.length / packet.frame.sampleRate, 0);
        await eventually(() => expect(seconds()).toBeGreaterThan(1), 10_000);
        expect(run.failures).toEqual([]);
      } finally {
        await run.stop();
      }
    },
    60_000,
  );
});
