import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GraphDocument } from '../../../contract/graph/graph-document.js';
import { graphOf } from '../format/graph-builder.js';
import { convertLegacyGraph } from '../format/legacy-graph.js';
import { platformNodeLibrary } from '../library/node-library.js';
import { GraphRuntime } from '../runtime/graph-runtime.js';
import { resolveSubgraphs } from './resolve-subgraphs.js';
import { validateGraph } from './validate-graph.js';

const exported = JSON.parse(readFileSync(new URL('./fixtures/exported-voice-ai.json', import.meta.url), 'utf8')) as { graph: unknown };

describe('graph validation', () => {
  it('a graph exported by the open engine (editor fields, loosely typed values, a portal) loads, validates and builds', () => {
    const document = GraphDocument.parse(exported.graph);
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
    const runtime = GraphRuntime.build({ document, subgraphs: new Map() }, platformNodeLibrary, {} as never);
    expect(runtime.pad('stt_3c4d', 'speech_started')).toBeDefined();
    expect(runtime.pad('llm_7a8b', 'base_url')).toMatchObject({ value: 'https://api.openai.com/v1' });
    expect(runtime.pad('stt_3c4d', 'service')).toMatchObject({ value: 'assembly_ai' });
  });

  it('names the node and pad of each problem', () => {
    const document = GraphDocument.parse(exported.graph);
    const broken = structuredClone(document);
    broken.nodes.find((node) => node.id === 'publish_1a2b')!.pads[0]!.next_pads.push({ node: 'tts_9c0d', pad: 'text' });
    broken.nodes.push({ ...broken.nodes[0]!, id: 'mystery', type: 'Teleporter', pads: [] });
    const issues = validateGraph(broken, new Map(), platformNodeLibrary);
    expect(issues).toEqual(
      expect.arrayContaining([
        { node: 'mystery', message: "unknown node type 'Teleporter'" },
        expect.objectContaining({
          node: 'publish_1a2b',
          pad: 'audio',
          message: expect.stringMatching(/cannot link to tts_9c0d.text: audio does not meet text_stream/),
        }),
        expect.objectContaining({ node: 'tts_9c0d', pad: 'text', message: expect.stringMatching(/has two inputs/) }),
      ]),
    );
  });

  it('finds sub graph cycles, direct and through another sub graph', async () => {
    const embedding = (id: string) => graphOf([{ id: 'inner', type: 'SubGraph', values: { __subgraph_id__: id } }]);
    const stored = new Map<string, GraphDocument>([
      ['sg_a', embedding('sg_b')],
      ['sg_b', embedding('sg_a')],
    ]);
    const { issues } = await resolveSubgraphs(embedding('sg_a'), async (id) => stored.get(id));
    expect(issues[0]).toMatchObject({ node: 'inner', pad: '__subgraph_id__', message: 'sub graphs form a cycle: sg_a -> sg_b -> sg_a' });
    const self = await resolveSubgraphs(embedding('sg_self'), async () => undefined, 'sg_self');
    expect(self.issues[0]?.message).toBe('sub graphs form a cycle: sg_self -> sg_self');
  });

  it('converts a graph of the previous format into one that validates, listing what has no equivalent', () => {
    const converted = convertLegacyGraph({
      nodes: [
        { id: 'microphone', type: 'audio_input' },
        { id: 'stt', type: 'stt', params: { language: 'en' } },
        { id: 'llm', type: 'llm', params: { model: 'default', system_prompt: 'Be kind.' } },
        { id: 'tts', type: 'tts', params: { voice: 'default' } },
        { id: 'speaker', type: 'audio_output' },
        { id: 'captions', type: 'text_output' },
      ],
      edges: [
        { source: 'microphone', source_pad: 'audio', target: 'stt', target_pad: 'audio' },
        { source: 'stt', source_pad: 'text', target: 'llm', target_pad: 'prompt' },
        { source: 'llm', source_pad: 'text', target: 'tts', target_pad: 'text' },
        { source: 'tts', source_pad: 'audio', target: 'speaker', target_pad: 'audio' },
        { source: 'llm', source_pad: 'text', target: 'captions', target_pad: 'text' },
      ],
    });
    expect(validateGraph(converted, new Map(), platformNodeLibrary)).toEqual([]);
    expect(converted.nodes.map((node) => node.type)).toEqual(
      expect.arrayContaining([
        'Publish',
        'STT',
        'ContextMessage',
        'CreateContextMessage',
        'LLMContext',
        'AutoConvert',
        'OpenAICompatibleLLM',
        'TTS',
        'Output',
        'Comment',
      ]),
    );
    const system = converted.nodes.find((node) => node.id === 'llm_system')!.pads.find((pad) => pad.id === 'content');
    expect(system?.value).toEqual({ type: 'string', value: 'Be kind.' });
    const note = converted.nodes.find((node) => node.id === 'legacy_note')!.pads.find((pad) => pad.id === 'text');
    expect(JSON.stringify(note?.value)).toMatch(/captions/);
  });
});
