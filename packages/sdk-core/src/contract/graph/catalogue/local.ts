import { pad, t, type NodeSpec, type PadSpec } from '../node-spec.js';
import { llmNodes } from './llm.js';

/** The LLM node's pads (the engine's BaseLLM), without the OpenAI-compatible node's own settings. */
function baseLlmPads(): PadSpec[] {
  const openAi = llmNodes.find((spec) => spec.type === 'OpenAICompatibleLLM')!;
  return openAi.pads.filter((candidate) => !['base_url', 'api_key', 'model', 'max_context_len'].includes(candidate.id));
}

const PORT_DESCRIPTION =
  "The server's port on the platform's local inference host (`PALAVER_GRAPH_LOCAL_URL`, default `http://127.0.0.1`); it must be one of `PALAVER_GRAPH_LOCAL_PORTS` (default 7002, 7004, 11434).";

/** Nodes served by the operator's local inference servers, as the open engine's `local` nodes. */
export const localNodes: NodeSpec[] = [
  {
    type: 'LocalLLM',
    description:
      "The LLM node answered by a local OpenAI-compatible server (Ollama, llama.cpp, vLLM) at `port` on the platform's local inference host: `/v1/chat/completions`, streamed, with tools as OpenAICompatibleLLM. `model` (a Palaver extension) names the server's model; empty, as the engine sends, suits a server with one model. Not metered: the operator's own hardware answers.",
    category: { primary: 'ai', secondary: 'local', tags: ['completion', 'text', 'llm', 'ollama'] },
    pads: [
      ...baseLlmPads(),
      pad.propertySink('port', [t.integer({ minimum: 1, maximum: 65535 })], 7002, { description: PORT_DESCRIPTION }),
      pad.propertySink('max_context_len', [t.integer({ minimum: 4096 })], 32768),
      pad.propertySink('model', [t.string()], '', { description: "Palaver extension: the model name sent to the server (Ollama's `llama3.2`)." }),
    ],
  },
  {
    type: 'LocalSTT',
    description:
      "Speech to text by the open engine's local speech server (`services/gabber-stt`: its WebSocket protocol, 16 kHz PCM in 100 ms pieces) at `port` on the platform's local inference host. The server decides the turns: `speech_started` and `is_speaking`, then the final transcription, the utterance as a clip, `is_speaking` false and `speech_ended`.",
    category: { primary: 'ai', secondary: 'local', tags: ['stt', 'speech'] },
    pads: [
      pad.sink('audio', [t.audio()]),
      pad.propertySink('port', [t.integer({ minimum: 1, maximum: 65535 })], 7004, { description: PORT_DESCRIPTION }),
      pad.source('speech_clip', [t.audioClip()]),
      pad.source('speech_started', [t.trigger()]),
      pad.source('speech_ended', [t.trigger()]),
      pad.source('final_transcription', [t.string()]),
      pad.propertySource('is_speaking', [t.boolean()], false),
    ],
  },
];
