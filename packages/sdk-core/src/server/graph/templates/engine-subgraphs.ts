import type { GraphDocument } from '../../../contract/graph/graph-document.js';
import { graphOf } from '../format/graph-builder.js';

/** Ids of the built-in sub graphs the open engine also ships (its `data/sub_graph`), rebuilt here with its pad ids. */
export const REMOTE_CONVERSATION_SUBGRAPH_ID = 'subgraph_default_remote_conversation';
export const CLASSIFY_SUBGRAPH_ID = 'subgraph_default_classify';

/**
 * Conversational AI with remote inference, as the engine ships it: STT, the LLM and TTS with barge-in, the
 * conversation kept outside. Pads (the engine's): in `audio_in`, `run_trigger`, `llm_context`, `tool_group`, the
 * settings `stt_service`, `stt_api_key`, `tts_service`, `tts_api_key`, `voice_id`, `llm_base_url`, `llm_api_key`,
 * `llm_model`; out `audio_out`, `new_user_message` (each utterance as a user message), `new_assistant_message`,
 * `speech_ended_trigger`, `transcription` (the last utterance). The graph embedding it keeps the LLMContext: user and
 * assistant messages in, its `source` to `llm_context`, its `new_user_message` to `run_trigger`.
 */
export function remoteConversationSubgraph(): GraphDocument {
  const setting = (id: string, padId: string, y: number) => ({
    id,
    type: 'ProxyPropertySink',
    values: { pad_id: padId },
    position: [0, y] as [number, number],
  });
  return graphOf(
    [
      { id: 'audio_in', type: 'ProxyStatelessSink', values: { pad_id: 'audio_in' }, position: [0, 0] },
      { id: 'run_trigger', type: 'ProxyStatelessSink', values: { pad_id: 'run_trigger' }, position: [600, 400] },
      { id: 'llm_context', type: 'ProxyStatelessSink', values: { pad_id: 'llm_context' }, position: [600, 500] },
      { id: 'tool_group', type: 'ProxyStatelessSink', values: { pad_id: 'tool_group' }, position: [600, 600] },
      setting('stt_service', 'stt_service', -400),
      setting('stt_api_key', 'stt_api_key', -300),
      setting('tts_service', 'tts_service', -200),
      setting('tts_api_key', 'tts_api_key', -100),
      setting('voice_id', 'voice_id', 100),
      setting('llm_base_url', 'llm_base_url', 200),
      setting('llm_api_key', 'llm_api_key', 300),
      setting('llm_model', 'llm_model', 400),
      { id: 'stt', type: 'STT', position: [300, 0] },
      { id: 'heard', type: 'String', position: [600, -200] },
      { id: 'last_heard', type: 'String', position: [600, 200] },
      { id: 'user_message', type: 'CreateContextMessage', values: { role: 'user' }, position: [900, -200] },
      { id: 'llm', type: 'OpenAICompatibleLLM', position: [900, 400] },
      { id: 'tts', type: 'TTS', position: [1200, 0] },
      { id: 'audio_out', type: 'ProxyStatelessSource', values: { pad_id: 'audio_out' }, position: [1500, 0] },
      { id: 'new_user_message', type: 'ProxyStatelessSource', values: { pad_id: 'new_user_message' }, position: [1200, -200] },
      { id: 'new_assistant_message', type: 'ProxyStatelessSource', values: { pad_id: 'new_assistant_message' }, position: [1200, 400] },
      { id: 'speech_ended_trigger', type: 'ProxyStatelessSource', values: { pad_id: 'speech_ended_trigger' }, position: [600, -400] },
      { id: 'transcription', type: 'ProxyPropertySource', values: { pad_id: 'transcription' }, position: [900, 200] },
    ],
    [
      { from: 'audio_in.proxy', to: 'stt.audio' },
      { from: 'stt_service.proxy', to: 'stt.service' },
      { from: 'stt_api_key.proxy', to: 'stt.api_key' },
      { from: 'tts_service.proxy', to: 'tts.service' },
      { from: 'tts_api_key.proxy', to: 'tts.api_key' },
      { from: 'voice_id.proxy', to: 'tts.voice_id' },
      { from: 'llm_base_url.proxy', to: 'llm.base_url' },
      { from: 'llm_api_key.proxy', to: 'llm.api_key' },
      { from: 'llm_model.proxy', to: 'llm.model' },
      { from: 'run_trigger.proxy', to: 'llm.run_trigger' },
      { from: 'llm_context.proxy', to: 'llm.context' },
      { from: 'tool_group.proxy', to: 'llm.tool_group' },
      // Barge-in: speech cancels the answer and the speech queued.
      { from: 'stt.speech_started', to: 'llm.cancel_trigger' },
      { from: 'stt.speech_started', to: 'tts.cancel_trigger' },
      { from: 'stt.speech_ended', to: 'speech_ended_trigger.proxy' },
      { from: 'stt.final_transcription', to: 'heard.set' },
      { from: 'stt.final_transcription', to: 'last_heard.set' },
      { from: 'heard.value', to: 'user_message.content' },
      { from: 'user_message.context_message', to: 'new_user_message.proxy' },
      { from: 'last_heard.value', to: 'transcription.proxy' },
      { from: 'llm.text_stream', to: 'tts.text' },
      { from: 'llm.context_message', to: 'new_assistant_message.proxy' },
      { from: 'tts.audio', to: 'audio_out.proxy' },
    ],
  );
}

/** The classifier's instructions: `{{ item }}` is what to look for. */
const CLASSIFY_TEMPLATE = [
  'You classify what you are shown: an image, a video or a text.',
  'Look for this: {{ item }}.',
  'Answer "true" when it is clearly there and "false" otherwise, with nothing else. A false "true" is worse than a missed one.',
].join('\n');

/**
 * Classify, as the engine ships it: an LLM told to look for `item_in` in what comes on `video_in` (a clip, an image,
 * or a text) answers "true" or "false" each time; `detected` says whether the answer contains "true",
 * `classify_llm_respond` holds the answer. Settings: `llm_base_model` (the engine's name for the base URL),
 * `llm_api_key`, `llm_model`.
 */
export function classifySubgraph(): GraphDocument {
  return graphOf(
    [
      { id: 'item_in', type: 'ProxyStatelessSink', values: { pad_id: 'item_in' }, position: [0, -300] },
      { id: 'video_in', type: 'ProxyStatelessSink', values: { pad_id: 'video_in' }, position: [0, 0] },
      { id: 'llm_base_model', type: 'ProxyPropertySink', values: { pad_id: 'llm_base_model' }, position: [900, 300] },
      { id: 'llm_api_key', type: 'ProxyPropertySink', values: { pad_id: 'llm_api_key' }, position: [900, 400] },
      { id: 'llm_model', type: 'ProxyPropertySink', values: { pad_id: 'llm_model' }, position: [900, 500] },
      { id: 'item', type: 'TypeConstraint', values: { type_selector: 'string' }, position: [300, -300] },
      {
        id: 'instructions',
        type: 'Jinja2',
        values: { num_properties: 1, jinja_template: CLASSIFY_TEMPLATE, property_name_0: 'item', property_value_0: '' },
        position: [600, -300],
      },
      { id: 'system_prompt', type: 'ContextMessage', values: { role: 'system', content: '' }, position: [900, -300] },
      { id: 'shown', type: 'CreateContextMessage', values: { role: 'user' }, position: [300, 0] },
      { id: 'context', type: 'LLMContext', values: { num_inserts: 1 }, position: [1200, 0] },
      { id: 'on_shown', type: 'AutoConvert', position: [1500, 200] },
      { id: 'llm', type: 'OpenAICompatibleLLM', position: [1800, 0] },
      { id: 'to_text', type: 'AutoConvert', position: [2100, 0] },
      { id: 'answer', type: 'String', position: [2400, 0] },
      {
        id: 'says_true',
        type: 'Compare',
        values: { num_conditions: 1, mode: 'AND', condition_0_B: 'true', condition_0_operator: 'CONTAINS' },
        position: [2700, 0],
      },
      { id: 'detected', type: 'ProxyStatelessSource', values: { pad_id: 'detected' }, position: [3000, 0] },
      { id: 'classify_llm_respond', type: 'ProxyPropertySource', values: { pad_id: 'classify_llm_respond' }, position: [2700, 300] },
    ],
    [
      { from: 'item_in.proxy', to: 'item.sink' },
      { from: 'item.source', to: 'instructions.property_value_0' },
      { from: 'instructions.rendered_output', to: 'system_prompt.content' },
      { from: 'system_prompt.context_message', to: 'context.system_message' },
      { from: 'video_in.proxy', to: 'shown.content' },
      { from: 'shown.context_message', to: 'context.insert_0' },
      { from: 'context.source', to: 'llm.context' },
      { from: 'context.new_user_message', to: 'on_shown.sink' },
      { from: 'on_shown.source', to: 'llm.run_trigger' },
      { from: 'llm_base_model.proxy', to: 'llm.base_url' },
      { from: 'llm_api_key.proxy', to: 'llm.api_key' },
      { from: 'llm_model.proxy', to: 'llm.model' },
      { from: 'llm.context_message', to: 'to_text.sink' },
      { from: 'to_text.source', to: 'answer.set' },
      { from: 'answer.value', to: 'says_true.condition_0_A' },
      { from: 'answer.value', to: 'classify_llm_respond.proxy' },
      { from: 'says_true.value', to: 'detected.proxy' },
    ],
  );
}
