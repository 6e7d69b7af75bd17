import type { GraphDocument } from '../../../contract/graph/graph-document.js';
import { graphOf, type KitLink, type KitNode } from './graph-builder.js';

interface LegacyNode {
  id: string;
  type: string;
  params?: Record<string, unknown>;
}

interface LegacyEdge {
  source: string;
  source_pad?: string;
  target: string;
  target_pad?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a stored graph is in the format used before the graph runtime (`{nodes: [{id, type, params}], edges}`). */
export function isLegacyGraph(graph: unknown): graph is { nodes?: LegacyNode[]; edges?: LegacyEdge[] } {
  if (!isRecord(graph)) return false;
  if (Array.isArray(graph.edges)) return true;
  return Array.isArray(graph.nodes) && graph.nodes.some((node) => isRecord(node) && !Array.isArray(node.pads));
}

const SIMPLE: Record<string, string> = {
  audio_input: 'Publish',
  audio_output: 'Output',
  stt: 'STT',
  tts: 'TTS',
  text_input: 'ChatInput',
  vad: 'SileroVAD',
};

/** Old (type, pad) -> new pad, for links out of and into converted nodes. */
const SOURCE_PADS: Record<string, string> = {
  'audio_input.audio': 'audio',
  'stt.text': 'final_transcription',
  'llm.text': 'text_stream',
  'tts.audio': 'audio',
  'text_input.text': 'output',
  'vad.speech': 'audio_clip',
};
const SINK_PADS: Record<string, string> = {
  'audio_output.audio': 'audio',
  'stt.audio': 'audio',
  'tts.text': 'text',
  'vad.audio': 'audio',
};

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/**
 * Converts a graph of the old format into the graph format: microphone, STT, TTS, speaker and text input map
 * to Publish, STT, TTS, Output and ChatInput; an `llm` node becomes the conversation it stood for
 * (ContextMessage with its system prompt, CreateContextMessage, LLMContext, AutoConvert, OpenAICompatibleLLM).
 * Nodes and links without an equivalent are listed on a Comment node, so nothing is silently lost.
 *
 * @example
 * convertLegacyGraph({ nodes: [{ id: 'mic', type: 'audio_input' }, { id: 'out', type: 'audio_output' }], edges: [{ source: 'mic', target: 'out' }] });
 */
export function convertLegacyGraph(graph: { nodes?: LegacyNode[]; edges?: LegacyEdge[] }): GraphDocument {
  const nodes: KitNode[] = [];
  const links: KitLink[] = [];
  const lost: string[] = [];
  const types = new Map<string, string>();
  const legacyNodes = (graph.nodes ?? []).filter((node) => isRecord(node) && typeof node.id === 'string' && typeof node.type === 'string');
  legacyNodes.forEach((node, index) => {
    const position: [number, number] = [index * 350, 0];
    types.set(node.id, node.type);
    const params = node.params ?? {};
    const simple = SIMPLE[node.type];
    if (simple) {
      const values: Record<string, unknown> = {};
      if (node.type === 'tts') values.voice_id = text(params.voice, '') === 'default' ? '' : text(params.voice, '');
      nodes.push({ id: node.id, type: simple, values, position });
      return;
    }
    if (node.type === 'llm') {
      const model = text(params.model, '');
      nodes.push(
        {
          id: `${node.id}_system`,
          type: 'ContextMessage',
          values: { role: 'system', content: text(params.system_prompt, 'You are a helpful assistant.') },
          position: [position[0], -300],
        },
        { id: `${node.id}_user`, type: 'CreateContextMessage', values: { role: 'user' }, position: [position[0], 300] },
        { id: `${node.id}_context`, type: 'LLMContext', values: { num_inserts: 2 }, position: [position[0] + 150, 0] },
        { id: `${node.id}_trigger`, type: 'AutoConvert', position: [position[0] + 150, 300] },
        { id: node.id, type: 'OpenAICompatibleLLM', values: { model: model === 'default' ? '' : model }, position: [position[0] + 300, 0] },
      );
      links.push(
        { from: `${node.id}_user.context_message`, to: `${node.id}_context.insert_0` },
        { from: `${node.id}_system.context_message`, to: `${node.id}_context.system_message` },
        { from: `${node.id}_context.source`, to: `${node.id}.context` },
        { from: `${node.id}_context.new_user_message`, to: `${node.id}_trigger.sink` },
        { from: `${node.id}_trigger.source`, to: `${node.id}.run_trigger` },
        { from: `${node.id}.context_message`, to: `${node.id}_context.insert_1` },
      );
      return;
    }
    lost.push(`node '${node.id}' (${node.type})`);
  });
  for (const edge of graph.edges ?? []) {
    if (!isRecord(edge)) continue;
    const sourceType = types.get(edge.source);
    const targetType = types.get(edge.target);
    const sourcePad = SOURCE_PADS[`${sourceType}.${edge.source_pad ?? defaultSourcePad(sourceType)}`];
    const target =
      targetType === 'llm' && (edge.target_pad ?? 'prompt') === 'prompt'
        ? `${edge.target}_user.content`
        : SINK_PADS[`${targetType}.${edge.target_pad ?? defaultSinkPad(targetType)}`] &&
          `${edge.target}.${SINK_PADS[`${targetType}.${edge.target_pad ?? defaultSinkPad(targetType)}`]}`;
    if (sourcePad && target && !links.some((link) => link.to === target)) links.push({ from: `${edge.source}.${sourcePad}`, to: target });
    else lost.push(`link ${edge.source}.${edge.source_pad ?? ''} -> ${edge.target}.${edge.target_pad ?? ''}`);
  }
  if (lost.length > 0) {
    nodes.push({
      id: 'legacy_note',
      type: 'Comment',
      values: { text: `Converted from the previous graph format. Not carried over: ${lost.join('; ')}.` },
      position: [0, -600],
    });
  }
  return graphOf(nodes, links);
}

function defaultSourcePad(type: string | undefined): string {
  return type === 'audio_input' || type === 'tts' ? 'audio' : type === 'vad' ? 'speech' : 'text';
}

function defaultSinkPad(type: string | undefined): string {
  return type === 'audio_output' || type === 'stt' || type === 'vad' ? 'audio' : 'text';
}
