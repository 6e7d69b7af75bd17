import type { AppGraph } from '../../../contract/apps.js';

/** A built-in graph with its deterministic id (so seeding at every start is idempotent). */
export interface BuiltInGraph {
  id: string;
  name: string;
  description: string;
  graph: AppGraph;
}

const microphone = { id: 'microphone', type: 'audio_input' };
const speaker = { id: 'speaker', type: 'audio_output' };
const stt = { id: 'stt', type: 'stt', params: { language: 'en' } };
const tts = { id: 'tts', type: 'tts', params: { voice: 'default' } };

function llm(systemPrompt: string, extra: Record<string, unknown> = {}) {
  return { id: 'llm', type: 'llm', params: { model: 'default', system_prompt: systemPrompt, ...extra } };
}

/** The spoken pipeline microphone -> STT -> LLM -> TTS -> speaker. */
const speechPipeline = [
  { source: 'microphone', source_pad: 'audio', target: 'stt', target_pad: 'audio' },
  { source: 'stt', source_pad: 'text', target: 'llm', target_pad: 'prompt' },
  { source: 'llm', source_pad: 'text', target: 'tts', target_pad: 'text' },
  { source: 'tts', source_pad: 'audio', target: 'speaker', target_pad: 'audio' },
];

/** `GET /v1/app/examples`. */
export const exampleApps: readonly BuiltInGraph[] = [
  {
    id: 'app_example_voice_assistant',
    name: 'Voice assistant',
    description: 'Speak to an LLM and hear its answer: microphone, speech to text, LLM, text to speech, speaker.',
    graph: {
      nodes: [microphone, stt, llm('You are a helpful voice assistant. Answer in one or two short sentences.'), tts, speaker],
      edges: speechPipeline,
    },
  },
  {
    id: 'app_example_echo',
    name: 'Echo',
    description: 'Repeats what you say in the agent voice: speech to text straight into text to speech.',
    graph: {
      nodes: [microphone, stt, tts, speaker],
      edges: [
        { source: 'microphone', source_pad: 'audio', target: 'stt', target_pad: 'audio' },
        { source: 'stt', source_pad: 'text', target: 'tts', target_pad: 'text' },
        { source: 'tts', source_pad: 'audio', target: 'speaker', target_pad: 'audio' },
      ],
    },
  },
  {
    id: 'app_example_translator',
    name: 'Translator',
    description: 'Speaks a translation of what you say and shows it as captions.',
    graph: {
      nodes: [
        microphone,
        stt,
        llm('Translate the user message into the target language. Answer with the translation only.', { target_language: 'es' }),
        tts,
        speaker,
        { id: 'captions', type: 'text_output' },
      ],
      edges: [...speechPipeline, { source: 'llm', source_pad: 'text', target: 'captions', target_pad: 'text' }],
    },
  },
];

/** `GET /v1/app_template/list`. */
export const appTemplates: readonly BuiltInGraph[] = [
  {
    id: 'app_template_customer_support',
    name: 'Customer support agent',
    description: 'A voice agent that answers questions about your product and can look up orders with a tool.',
    graph: {
      nodes: [
        microphone,
        stt,
        llm('You are a friendly support agent. Be concise; use the order lookup tool when asked about an order.', {
          tools: ['order_lookup'],
        }),
        tts,
        speaker,
      ],
      edges: speechPipeline,
    },
  },
  {
    id: 'app_template_chat_bot',
    name: 'Chat bot',
    description: 'A text-only assistant: typed input, an LLM with conversation memory, text output.',
    graph: {
      nodes: [
        { id: 'input', type: 'text_input' },
        llm('You are a helpful assistant.', { memory: true }),
        { id: 'output', type: 'text_output' },
      ],
      edges: [
        { source: 'input', source_pad: 'text', target: 'llm', target_pad: 'prompt' },
        { source: 'llm', source_pad: 'text', target: 'output', target_pad: 'text' },
      ],
    },
  },
  {
    id: 'app_template_meeting_notes',
    name: 'Meeting notes',
    description: 'Listens to a conversation, transcribes it and writes a running summary.',
    graph: {
      nodes: [
        microphone,
        stt,
        llm('Summarise the transcript so far as short bullet points with decisions and action items.'),
        { id: 'transcript', type: 'text_output' },
        { id: 'summary', type: 'text_output' },
      ],
      edges: [
        { source: 'microphone', source_pad: 'audio', target: 'stt', target_pad: 'audio' },
        { source: 'stt', source_pad: 'text', target: 'transcript', target_pad: 'text' },
        { source: 'stt', source_pad: 'text', target: 'llm', target_pad: 'prompt' },
        { source: 'llm', source_pad: 'text', target: 'summary', target_pad: 'text' },
      ],
    },
  },
];

/** `GET /v1/app/subgraph/list_default`: building blocks with dangling pads meant to be wired in. */
export const defaultSubGraphs: readonly BuiltInGraph[] = [
  {
    id: 'subgraph_default_listen',
    name: 'Listen (VAD + speech to text)',
    description: 'Detects speech in incoming audio and transcribes each utterance.',
    graph: {
      nodes: [
        { id: 'vad', type: 'vad', params: { threshold: 0.5, min_silence_ms: 500 } },
        stt,
      ],
      edges: [{ source: 'vad', source_pad: 'speech', target: 'stt', target_pad: 'audio' }],
    },
  },
  {
    id: 'subgraph_default_speak',
    name: 'Speak (text to speech)',
    description: 'Splits text into sentences and synthesises them.',
    graph: {
      nodes: [{ id: 'sentences', type: 'sentence_splitter' }, tts],
      edges: [{ source: 'sentences', source_pad: 'text', target: 'tts', target_pad: 'text' }],
    },
  },
  {
    id: 'subgraph_default_think',
    name: 'Think (LLM with memory)',
    description: 'An LLM that keeps the conversation in a context.',
    graph: {
      nodes: [{ id: 'context', type: 'context' }, llm('You are a helpful assistant.')],
      edges: [{ source: 'context', source_pad: 'messages', target: 'llm', target_pad: 'history' }],
    },
  },
];
