import type { GraphDocument } from '../../../contract/graph/graph-document.js';
import { graphOf } from '../format/graph-builder.js';

const SYSTEM_PROMPT =
  "You are a helpful voice assistant who can see the user's camera: each question comes with the last seconds of it. Answer in one or two short sentences.";

/**
 * Conversation with video, as the open engine's example: the camera at 0.5 frames a second fills a sliding window,
 * which the end of each utterance flushes; the transcription and the clip are zipped into one user message the LLM
 * answers (a vision model sees the frames), spoken by TTS. A typed question (ChatInput) does the same: Merge nodes join
 * the spoken and the typed words, and both flushes (a sink takes one input). The human
 * speaking again cancels the answer.
 */
export function videoConversationGraph(): GraphDocument {
  return graphOf(
    [
      { id: 'publish', type: 'Publish', position: [0, 0] },
      { id: 'stt', type: 'STT', position: [300, 0] },
      { id: 'chat', type: 'ChatInput', position: [300, 300] },
      { id: 'words', type: 'Merge', values: { num_sinks: 2 }, position: [600, 150] },
      { id: 'on_typed', type: 'AutoConvert', position: [600, 450] },
      { id: 'flush', type: 'Merge', values: { num_sinks: 2 }, position: [600, -150] },
      { id: 'fps', type: 'FPS', values: { fps: 0.5 }, position: [300, -300] },
      { id: 'window', type: 'SlidingWindow', values: { window_size_s: 5 }, position: [600, -300] },
      { id: 'user_message', type: 'ContextMessageZip', values: { role: 'user', num_contents: 2 }, position: [900, 0] },
      { id: 'system_prompt', type: 'ContextMessage', values: { role: 'system', content: SYSTEM_PROMPT }, position: [900, -400] },
      { id: 'context', type: 'LLMContext', values: { num_inserts: 2 }, position: [1200, 0] },
      { id: 'on_user_message', type: 'AutoConvert', position: [1500, 200] },
      { id: 'llm', type: 'OpenAICompatibleLLM', position: [1800, 0] },
      { id: 'tts', type: 'TTS', position: [2100, 0] },
      { id: 'output', type: 'Output', position: [2400, 0] },
    ],
    [
      { from: 'publish.audio', to: 'stt.audio' },
      { from: 'publish.video', to: 'fps.video_in' },
      { from: 'fps.video_out', to: 'window.video' },
      // The end of an utterance (or a typed question) sends the window's frames with the words.
      { from: 'stt.speech_ended', to: 'flush.sink_0' },
      { from: 'chat.output', to: 'on_typed.sink' },
      { from: 'on_typed.source', to: 'flush.sink_1' },
      { from: 'flush.source', to: 'window.flush' },
      { from: 'stt.final_transcription', to: 'words.sink_0' },
      { from: 'chat.output', to: 'words.sink_1' },
      { from: 'words.source', to: 'user_message.content_0' },
      { from: 'window.clip', to: 'user_message.content_1' },
      { from: 'user_message.context_message', to: 'context.insert_0' },
      { from: 'system_prompt.context_message', to: 'context.system_message' },
      { from: 'context.source', to: 'llm.context' },
      { from: 'context.new_user_message', to: 'on_user_message.sink' },
      { from: 'on_user_message.source', to: 'llm.run_trigger' },
      { from: 'llm.text_stream', to: 'tts.text' },
      { from: 'llm.context_message', to: 'context.insert_1' },
      { from: 'stt.speech_started', to: 'llm.cancel_trigger' },
      { from: 'stt.speech_started', to: 'tts.cancel_trigger' },
      { from: 'tts.audio', to: 'output.audio' },
    ],
  );
}
