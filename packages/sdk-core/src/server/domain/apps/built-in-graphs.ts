import type { GraphDocument } from '../../../contract/graph/graph-document.js';
import {
  VOICE_PIPELINE_SUBGRAPH_ID,
  echoGraph,
  simpleVoiceAiGraph,
  typedChatGraph,
  voiceAiWithSubgraphGraph,
  voiceAiWithToolsGraph,
  voicePipelineSubgraph,
} from '../../graph/templates/voice-graphs.js';
import { videoConversationGraph } from '../../graph/templates/video-graphs.js';
import { CLASSIFY_SUBGRAPH_ID, REMOTE_CONVERSATION_SUBGRAPH_ID, classifySubgraph, remoteConversationSubgraph } from '../../graph/templates/engine-subgraphs.js';

/** A built-in graph with its deterministic id (so seeding at every start is idempotent). */
export interface BuiltInGraph {
  id: string;
  name: string;
  description: string;
  graph: GraphDocument;
}

/** `GET /v1/app/examples`. */
export const exampleApps: readonly BuiltInGraph[] = [
  {
    id: 'app_example_echo',
    name: 'Echo',
    description: 'Hear yourself: the microphone published on the Publish node straight back to the Output node.',
    graph: echoGraph(),
  },
  {
    id: 'app_example_voice_assistant',
    name: 'Voice assistant',
    description: 'Speak to an LLM and hear its answer; speaking again interrupts it.',
    graph: simpleVoiceAiGraph(),
  },
  {
    id: 'app_example_typed_chat',
    name: 'Typed chat, spoken answers',
    description: 'Type on the ChatInput node and hear the LLM answer.',
    graph: typedChatGraph(),
  },
];

/** `GET /v1/app_template/list`. */
export const appTemplates: readonly BuiltInGraph[] = [
  { id: 'app_template_echo', name: 'Echo', description: 'Publish -> Output: what you say comes straight back.', graph: echoGraph() },
  {
    id: 'app_template_simple_voice_ai',
    name: 'Simple Voice AI',
    description: 'STT, an LLM context, the LLM and TTS, with barge-in: the human speaking cancels the answer and its queued speech.',
    graph: simpleVoiceAiGraph(),
  },
  {
    id: 'app_template_voice_ai_tools',
    name: 'Voice AI with tools',
    description: "Simple Voice AI whose LLM calls the project's tools through a ToolGroup (preset: a tool named get_weather).",
    graph: voiceAiWithToolsGraph(),
  },
  {
    id: 'app_template_voice_ai_subgraph',
    name: 'Voice AI in a sub graph',
    description: 'Publish -> the built-in voice pipeline sub graph -> Output; set its system_prompt and voice_id pads.',
    graph: voiceAiWithSubgraphGraph(),
  },
  {
    id: 'app_template_video_conversation',
    name: 'Conversation with video',
    description:
      'Show your camera and ask about it: the camera at 0.5 fps in a sliding window, flushed at the end of each utterance (or typed question) and zipped with the words into the message a vision-capable LLM answers aloud.',
    graph: videoConversationGraph(),
  },
];

/** `GET /v1/app/subgraph/list_default`: building blocks meant to be embedded with a SubGraph node. */
export const defaultSubGraphs: readonly BuiltInGraph[] = [
  {
    id: VOICE_PIPELINE_SUBGRAPH_ID,
    name: 'Voice pipeline',
    description: 'Listen, answer and speak, with barge-in. Pads: audio_in, audio_out, system_prompt, voice_id, transcription.',
    graph: voicePipelineSubgraph(),
  },
  {
    id: REMOTE_CONVERSATION_SUBGRAPH_ID,
    name: 'Conversational AI w/ Remote Inference',
    description:
      "The open engine's conversation block: STT, LLM and TTS with barge-in; the embedding graph keeps the LLMContext. Pads: audio_in, run_trigger, llm_context, tool_group, stt/tts/llm settings, voice_id; audio_out, new_user_message, new_assistant_message, speech_ended_trigger, transcription.",
    graph: remoteConversationSubgraph(),
  },
  {
    id: CLASSIFY_SUBGRAPH_ID,
    name: 'Classify',
    description:
      "The open engine's classifier: an LLM looks for item_in in what comes on video_in (a clip, an image or a text); detected tells whether it answered true, classify_llm_respond holds the answer. Settings: llm_base_model, llm_api_key, llm_model.",
    graph: classifySubgraph(),
  },
];
