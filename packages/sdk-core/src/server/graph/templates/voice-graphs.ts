import type { GraphDocument } from '../../../contract/graph/graph-document.js';
import { graphOf, type KitLink, type KitNode } from '../format/graph-builder.js';

/** Ids of the built-in sub graphs the templates embed. */
export const VOICE_PIPELINE_SUBGRAPH_ID = 'subgraph_default_voice_pipeline';

const SYSTEM_PROMPT = 'You are a helpful voice assistant. Answer in one or two short sentences.';

/** The spoken conversation: STT -> user message -> context -> LLM -> TTS, with barge-in. */
function conversation(options: { systemPrompt?: string; withTools?: boolean } = {}): { nodes: KitNode[]; links: KitLink[] } {
  const nodes: KitNode[] = [
    { id: 'stt', type: 'STT', position: [300, 0] },
    { id: 'user_message', type: 'CreateContextMessage', values: { role: 'user' }, position: [600, 0] },
    { id: 'system_prompt', type: 'ContextMessage', values: { role: 'system', content: options.systemPrompt ?? SYSTEM_PROMPT }, position: [600, -300] },
    { id: 'context', type: 'LLMContext', values: { num_inserts: 2 }, position: [900, 0] },
    { id: 'on_user_message', type: 'AutoConvert', position: [1200, 200] },
    { id: 'llm', type: 'OpenAICompatibleLLM', position: [1500, 0] },
    { id: 'tts', type: 'TTS', position: [1800, 0] },
  ];
  const links: KitLink[] = [
    { from: 'stt.final_transcription', to: 'user_message.content' },
    { from: 'user_message.context_message', to: 'context.insert_0' },
    { from: 'system_prompt.context_message', to: 'context.system_message' },
    { from: 'context.source', to: 'llm.context' },
    { from: 'context.new_user_message', to: 'on_user_message.sink' },
    { from: 'on_user_message.source', to: 'llm.run_trigger' },
    { from: 'llm.text_stream', to: 'tts.text' },
    { from: 'llm.context_message', to: 'context.insert_1' },
    // Barge-in: the human speaking cancels the answer and drops the speech queued.
    { from: 'stt.speech_started', to: 'llm.cancel_trigger' },
    { from: 'stt.speech_started', to: 'tts.cancel_trigger' },
  ];
  if (options.withTools) {
    nodes.push({ id: 'tools', type: 'ToolGroup', values: { tools: ['get_weather'] }, position: [1200, -300] });
    links.push({ from: 'tools.self', to: 'llm.tool_group' });
  }
  return { nodes, links };
}

/** Echo: the microphone straight back to the speaker. */
export function echoGraph(): GraphDocument {
  return graphOf(
    [
      { id: 'publish', type: 'Publish', position: [0, 0] },
      { id: 'output', type: 'Output', position: [400, 0] },
      {
        id: 'note',
        type: 'Comment',
        values: { text: 'Publish your microphone on the Publish node (track `publish:audio`) and hear yourself.' },
        position: [0, -250],
      },
    ],
    [{ from: 'publish.audio', to: 'output.audio' }],
  );
}

/** Simple Voice AI: listen, answer with the LLM, speak; the human interrupting cancels the answer. */
export function simpleVoiceAiGraph(options: { systemPrompt?: string } = {}): GraphDocument {
  const { nodes, links } = conversation(options);
  return graphOf(
    [{ id: 'publish', type: 'Publish', position: [0, 0] }, ...nodes, { id: 'output', type: 'Output', position: [2100, 0] }],
    [{ from: 'publish.audio', to: 'stt.audio' }, ...links, { from: 'tts.audio', to: 'output.audio' }],
  );
}

/** Voice AI with tools: Simple Voice AI whose LLM may call the project's tool `get_weather` (a ToolGroup). */
export function voiceAiWithToolsGraph(): GraphDocument {
  const { nodes, links } = conversation({
    systemPrompt: 'You are a helpful voice assistant. Use your tools when they help. Answer in one or two short sentences.',
    withTools: true,
  });
  return graphOf(
    [{ id: 'publish', type: 'Publish', position: [0, 0] }, ...nodes, { id: 'output', type: 'Output', position: [2100, 0] }],
    [{ from: 'publish.audio', to: 'stt.audio' }, ...links, { from: 'tts.audio', to: 'output.audio' }],
  );
}

/**
 * The voice conversation as a sub graph: pads `audio_in`, `audio_out`, `system_prompt`, `voice_id`,
 * `transcription` (each user utterance).
 */
export function voicePipelineSubgraph(): GraphDocument {
  const { nodes, links } = conversation();
  return graphOf(
    [
      { id: 'audio_in', type: 'ProxyStatelessSink', values: { pad_id: 'audio_in' }, position: [0, 0] },
      { id: 'prompt_in', type: 'ProxyPropertySink', values: { pad_id: 'system_prompt' }, position: [300, -300] },
      { id: 'voice_in', type: 'ProxyPropertySink', values: { pad_id: 'voice_id' }, position: [1500, -300] },
      ...nodes,
      { id: 'audio_out', type: 'ProxyStatelessSource', values: { pad_id: 'audio_out' }, position: [2100, 0] },
      { id: 'transcription_out', type: 'ProxyStatelessSource', values: { pad_id: 'transcription' }, position: [600, 300] },
    ],
    [
      { from: 'audio_in.proxy', to: 'stt.audio' },
      { from: 'prompt_in.proxy', to: 'system_prompt.content' },
      { from: 'voice_in.proxy', to: 'tts.voice_id' },
      ...links,
      { from: 'stt.final_transcription', to: 'transcription_out.proxy' },
      { from: 'tts.audio', to: 'audio_out.proxy' },
    ],
  );
}

/** Voice AI with a sub graph: Publish -> the voice pipeline sub graph -> Output. */
export function voiceAiWithSubgraphGraph(): GraphDocument {
  return graphOf(
    [
      { id: 'publish', type: 'Publish', position: [0, 0] },
      {
        id: 'voice',
        type: 'SubGraph',
        values: { __subgraph_id__: VOICE_PIPELINE_SUBGRAPH_ID },
        position: [400, 0],
      },
      { id: 'output', type: 'Output', position: [800, 0] },
    ],
    [
      { from: 'publish.audio', to: 'voice.audio_in' },
      { from: 'voice.audio_out', to: 'output.audio' },
    ],
    {
      voice: [
        {
          id: 'audio_in',
          group: 'audio_in',
          type: 'StatelessSinkPad',
          default_allowed_types: [{ type: 'audio' }],
          allowed_types: [{ type: 'audio' }],
          value: null,
          next_pads: [],
          previous_pad: null,
        },
        {
          id: 'audio_out',
          group: 'audio_out',
          type: 'StatelessSourcePad',
          default_allowed_types: [{ type: 'audio' }],
          allowed_types: [{ type: 'audio' }],
          value: null,
          next_pads: [],
          previous_pad: null,
        },
        {
          id: 'system_prompt',
          group: 'system_prompt',
          type: 'PropertySinkPad',
          default_allowed_types: [{ type: 'string' }],
          allowed_types: [{ type: 'string' }],
          value: { type: 'string', value: SYSTEM_PROMPT },
          next_pads: [],
          previous_pad: null,
        },
        {
          id: 'voice_id',
          group: 'voice_id',
          type: 'PropertySinkPad',
          default_allowed_types: [{ type: 'string' }],
          allowed_types: [{ type: 'string' }],
          value: { type: 'string', value: '' },
          next_pads: [],
          previous_pad: null,
        },
        {
          id: 'transcription',
          group: 'transcription',
          type: 'StatelessSourcePad',
          default_allowed_types: [{ type: 'string' }],
          allowed_types: [{ type: 'string' }],
          value: null,
          next_pads: [],
          previous_pad: null,
        },
      ],
    },
  );
}

/** A typed chat with spoken answers: ChatInput -> user message -> LLM -> TTS -> Output. */
export function typedChatGraph(): GraphDocument {
  const { nodes, links } = conversation({ systemPrompt: 'You are a helpful assistant. Answer in one or two short sentences.' });
  return graphOf(
    [
      { id: 'chat', type: 'ChatInput', position: [300, 300] },
      ...nodes.filter((node) => node.id !== 'stt'),
      { id: 'output', type: 'Output', position: [2100, 0] },
    ],
    [{ from: 'chat.output', to: 'user_message.content' }, ...links.filter((link) => !link.from.startsWith('stt.')), { from: 'tts.audio', to: 'output.audio' }],
  );
}
