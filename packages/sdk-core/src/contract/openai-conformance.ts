/**
 * How the platform answers each feature of OpenAI's API, per endpoint and per target: `served` (taken as OpenAI
 * defines it), `bridged` (taken, and mapped onto what the target has), `refused` (400 naming the field). The rows are
 * checked by `tests/llm/openai-conformance.test.ts`, which probes each one with the `openai` package and writes
 * `docs/OPENAI-CONFORMANCE.md`; the OpenAPI description (`/docs`) shows the same table.
 */

export type ConformanceStatus = 'served' | 'bridged' | 'refused';

/**
 * Who answers: an upstream of OpenAI's own API (the built-in OpenAI LLMs), another OpenAI-compatible upstream (project
 * LLMs, Ollama), the built-in offline model, or the platform itself (audio endpoints).
 */
export type ConformanceTarget = 'openai upstream' | 'compatible upstream' | 'offline model' | 'platform';

export interface ConformanceRow {
  endpoint: string;
  feature: string;
  statuses: Partial<Record<ConformanceTarget, ConformanceStatus>>;
  note: string;
}

const CHAT = 'POST /v1/chat/completions';
const SPEECH = 'POST /v1/audio/speech';
const TRANSCRIPTIONS = 'POST /v1/audio/transcriptions';
const RESPONSES = 'POST /v1/responses';
const REALTIME = 'WS /v1/realtime';
const REALTIME_CALLS = 'POST /v1/realtime/calls';

/** A Responses row: every target answers it over the chat path (decision 0096). */
function responses(feature: string, status: ConformanceStatus, note: string, offline: ConformanceStatus = status): ConformanceRow {
  return { endpoint: RESPONSES, feature, statuses: { 'openai upstream': status, 'compatible upstream': status, 'offline model': offline }, note };
}

/** A Realtime API row: the platform's voice layer answers it (decision 0113). */
function realtime(feature: string, status: ConformanceStatus, note: string): ConformanceRow {
  return { endpoint: REALTIME, feature, statuses: { platform: status }, note };
}

/** A row of the Realtime API over WebRTC: the same conversation as the socket's, on a werift peer. */
function realtimeCall(feature: string, status: ConformanceStatus, note: string): ConformanceRow {
  return { endpoint: REALTIME_CALLS, feature, statuses: { platform: status }, note };
}

/** A chat row whose two upstreams take the field as given. */
function passed(feature: string, offline: ConformanceStatus, note: string): ConformanceRow {
  return { endpoint: CHAT, feature, statuses: { 'openai upstream': 'served', 'compatible upstream': 'served', 'offline model': offline }, note };
}

export const OPENAI_CONFORMANCE: readonly ConformanceRow[] = [
  passed('messages: system, user, assistant, tool', 'served', 'user parts: text, image_url and video_url (upstreams), input_audio (transcribed first)'),
  {
    endpoint: CHAT,
    feature: 'messages: developer role',
    statuses: { 'openai upstream': 'served', 'compatible upstream': 'bridged', 'offline model': 'served' },
    note: 'sent as `system` to upstreams other than OpenAI',
  },
  passed('stream, stream_options.include_usage', 'served', 'usage is always asked of upstreams, for metering'),
  {
    endpoint: CHAT,
    feature: 'stream_options.include_obfuscation',
    statuses: { 'openai upstream': 'bridged', 'compatible upstream': 'bridged', 'offline model': 'bridged' },
    note: 'taken; the platform’s chunks carry no obfuscation padding',
  },
  passed('max_completion_tokens', 'served', 'cut further when the human’s token budget is nearly used up'),
  passed('max_tokens', 'served', 'as `max_completion_tokens`; the caller’s field is the one sent'),
  passed('n', 'served', 'the offline model gives n identical choices; refused with moderation or speech output'),
  passed('stop', 'served', 'the offline model ends the answer before the first sequence'),
  passed('seed', 'served', 'the offline model is deterministic'),
  passed('temperature, top_p', 'served', 'the offline model answers the same at any setting'),
  passed('logprobs, top_logprobs', 'served', 'the offline model gives each token logprob 0 and no other candidate'),
  passed('response_format: json_object', 'served', 'the offline model answers `{"reply": ...}`'),
  passed('response_format: json_schema (strict)', 'served', 'the offline model answers a value it validates against the schema, or 400'),
  passed('tools, tool_choice, parallel_tool_calls', 'served', 'the offline model calls a tool the user names'),
  passed('prediction', 'served', 'changes no answer'),
  passed('user, safety_identifier, prompt_cache_key, prompt_cache_retention', 'served', ''),
  {
    endpoint: CHAT,
    feature: 'metadata',
    statuses: { 'openai upstream': 'bridged', 'compatible upstream': 'bridged', 'offline model': 'served' },
    note: 'kept with the usage records; passed on with `store: true` (as OpenAI takes it), without the platform’s `moderation` key',
  },
  passed('store: true, metadata', 'refused', 'completions are not stored for retrieval here'),
  passed('service_tier: flex, scale, priority', 'refused', '`auto` and `default` are served'),
  passed('reasoning_effort', 'refused', 'the offline model takes only `none`'),
  passed('verbosity', 'refused', ''),
  passed('frequency_penalty, presence_penalty', 'refused', 'the offline model takes only 0'),
  passed('logit_bias', 'refused', ''),
  passed('web_search_options', 'refused', ''),
  passed('moderation (OpenAI’s)', 'refused', 'the platform’s moderation is `metadata.moderation`'),
  passed('functions, function_call (deprecated)', 'refused', 'use tools and tool_choice'),
  passed('messages: assistant audio, function_call', 'refused', 'OpenAI’s stored audio answers; deprecated function calls'),
  {
    endpoint: CHAT,
    feature: 'modalities: audio, audio',
    statuses: { 'openai upstream': 'bridged', 'compatible upstream': 'bridged', 'offline model': 'bridged' },
    note: 'spoken by the platform’s voices: `service_ext.voice.audio_url`, not `message.audio`',
  },
  {
    endpoint: CHAT,
    feature: 'a field OpenAI does not define',
    statuses: { 'openai upstream': 'refused', 'compatible upstream': 'refused', 'offline model': 'refused' },
    note: 'never dropped silently',
  },
  { endpoint: SPEECH, feature: 'voice: a platform voice id', statuses: { platform: 'bridged' }, note: 'OpenAI’s voice names are not platform voices: 400' },
  { endpoint: SPEECH, feature: 'model', statuses: { platform: 'bridged' }, note: 'any name: the voice chooses the engine' },
  { endpoint: SPEECH, feature: 'response_format: mp3, opus, wav, pcm', statuses: { platform: 'served' }, note: 'pcm: 24 kHz 16-bit little-endian mono' },
  { endpoint: SPEECH, feature: 'streamed audio', statuses: { platform: 'served' }, note: 'sent as the engine makes it; wav once whole' },
  { endpoint: SPEECH, feature: 'response_format: aac, flac', statuses: { platform: 'served' }, note: 'encoded by ffmpeg once the speech is whole' },
  {
    endpoint: SPEECH,
    feature: 'speed other than 1',
    statuses: { platform: 'served' },
    note: 'the voice’s rate: Flite’s duration stretch; eSpeak NG’s words a minute, kept within 80 to 450 (about 0.46x to 2.6x)',
  },
  { endpoint: SPEECH, feature: 'instructions', statuses: { platform: 'refused' }, note: '' },
  {
    endpoint: SPEECH,
    feature: 'stream_format: sse',
    statuses: { platform: 'served' },
    note: 'a delta as the engine speaks; usage counts the input’s text tokens (speech is metered in seconds)',
  },
  { endpoint: TRANSCRIPTIONS, feature: 'file: wav, mp3, ogg', statuses: { platform: 'served' }, note: '' },
  { endpoint: TRANSCRIPTIONS, feature: 'file: flac, m4a, mp4, webm', statuses: { platform: 'served' }, note: 'decoded by ffmpeg' },
  { endpoint: TRANSCRIPTIONS, feature: 'model', statuses: { platform: 'bridged' }, note: 'any name: the platform’s STT engine transcribes' },
  { endpoint: TRANSCRIPTIONS, feature: 'response_format: json, text, srt, vtt', statuses: { platform: 'served' }, note: '' },
  {
    endpoint: TRANSCRIPTIONS,
    feature: 'response_format: verbose_json, timestamp_granularities',
    statuses: { platform: 'bridged' },
    note: 'segments cut at pauses; word times spread over their segment',
  },
  { endpoint: TRANSCRIPTIONS, feature: 'language: en', statuses: { platform: 'served' }, note: 'other languages refused by the pocketsphinx engine' },
  { endpoint: TRANSCRIPTIONS, feature: 'prompt', statuses: { platform: 'refused' }, note: '' },
  { endpoint: TRANSCRIPTIONS, feature: 'temperature other than 0', statuses: { platform: 'refused' }, note: '' },
  { endpoint: TRANSCRIPTIONS, feature: 'response_format: diarized_json', statuses: { platform: 'refused' }, note: '' },
  { endpoint: TRANSCRIPTIONS, feature: 'include: logprobs', statuses: { platform: 'refused' }, note: '' },
  { endpoint: TRANSCRIPTIONS, feature: 'stream: true', statuses: { platform: 'served' }, note: 'a text delta per segment as it is recognised; json, text' },
  responses(
    'input: text, messages; instructions',
    'bridged',
    'a chat request for the same LLM; instructions a system message first; input_image for LLMs that see',
  ),
  responses('stream: typed events', 'bridged', 'the chat stream’s chunks as OpenAI’s events, numbered'),
  responses('store, previous_response_id; retrieve, delete, input_items', 'served', 'kept per project and human for 30 days'),
  responses('tools (function), tool_choice, parallel_tool_calls', 'bridged', 'function calls as items; outputs as tool messages'),
  responses('text.format: json_schema (structured output)', 'bridged', 'as `response_format`'),
  responses('max_output_tokens, temperature, top_p, metadata, user', 'bridged', 'as the chat fields'),
  responses('reasoning.effort', 'bridged', 'as `reasoning_effort`; the offline model takes only `none` (its 400 names `reasoning_effort`)', 'refused'),
  responses('background: true', 'refused', ''),
  responses('truncation: auto', 'refused', 'a conversation longer than the LLM takes is refused by it'),
  responses('include, conversation, built-in tools', 'refused', 'fields not served are 400, never dropped'),
  realtime('session.update: instructions, tools, tool_choice, output_modalities, max_output_tokens', 'served', '`model` is a platform LLM id'),
  realtime('audio format: audio/pcm 24 kHz', 'served', 'in and out'),
  realtime('audio format: audio/pcmu, audio/pcma', 'served', 'G.711 at 8 kHz, in and out (linear resampling to and from 24 kHz)'),
  realtime('turn_detection: server_vad, semantic_vad', 'bridged', 'the platform’s VAD and adaptive end of turn; `silence_duration_ms` a fixed silence'),
  realtime('turn_detection: null; input_audio_buffer.commit', 'served', 'the buffer is transcribed whole when committed'),
  realtime('audio.input.transcription.model', 'bridged', 'any name: the platform’s STT engine transcribes'),
  realtime('audio.output.voice: a platform voice id', 'bridged', 'OpenAI’s voice names are not platform voices: error event'),
  realtime('input_audio_buffer.append, clear', 'served', ''),
  realtime('conversation.item.create, retrieve, delete', 'served', 'messages (input_audio transcribed), function_call, function_call_output'),
  realtime('conversation.item.truncate', 'served', 'the transcript keeps the words spoken before `audio_end_ms`'),
  realtime('response.create: audio, audio transcript and text deltas', 'served', 'audio paced at most 400 ms ahead of playback'),
  realtime('response.create: conversation none, input, instructions, metadata', 'served', ''),
  realtime('response.cancel; speech cancels the response', 'served', 'status_details.reason `client_cancelled`, `turn_detected`'),
  realtime('function calls', 'served', 'the client runs them and answers with function_call_output'),
  realtime('usage in response.done', 'bridged', 'text tokens; speech is metered in seconds (audio tokens 0)'),
  realtime('tracing', 'bridged', 'taken; the platform’s own traces cover the session'),
  realtime('noise_reduction, speed other than 1', 'refused', ''),
  realtime('prompt, reasoning, MCP tools', 'refused', 'fields not served are an error event naming them'),
  realtime('output_audio_buffer.clear', 'refused', 'WebRTC only'),
  realtime('an event or field OpenAI does not define', 'refused', 'an error event naming it; the session goes on'),
  realtime('ephemeral keys: POST /v1/realtime/client_secrets', 'bridged', 'a usage token of the `x-human-id` human; session fields other than `model` refused'),
  realtime('the beta protocol (OpenAI-Beta: realtime=v1)', 'bridged', 'its flat session fields and event names translated at the edge'),
  realtimeCall('SDP offer (application/sdp or a form), answer with Location', 'served', 'API key, usage token or ephemeral key; `?model=` or `session.update`'),
  realtimeCall('events on the oai-events data channel', 'served', 'every websocket event, the same conversation'),
  realtimeCall('audio: Opus tracks both ways', 'served', 'the microphone heard by the server VAD; speech paced at real time'),
  realtimeCall('output_audio_buffer.started, stopped, cleared; output_audio_buffer.clear', 'served', 'clear cancels the response and drops its queued audio'),
  realtimeCall('hang-up: POST /v1/realtime/calls/{call_id}/hangup', 'served', 'the call ends, its conversational seconds recorded'),
];

/**
 * The rows as Markdown: a table per endpoint, a column per target it has.
 *
 * @example
 * conformanceMarkdown(OPENAI_CONFORMANCE) // '### POST /v1/chat/completions\n\n| feature | openai upstream | ...'
 */
export function conformanceMarkdown(rows: readonly ConformanceRow[]): string {
  const endpoints = [...new Set(rows.map((row) => row.endpoint))];
  return endpoints
    .map((endpoint) => {
      const own = rows.filter((row) => row.endpoint === endpoint);
      const targets = (['openai upstream', 'compatible upstream', 'offline model', 'platform'] as const).filter((target) =>
        own.some((row) => row.statuses[target] !== undefined),
      );
      const lines = [`### ${endpoint}`, '', `| feature | ${targets.join(' | ')} | note |`, `|---|${targets.map(() => '---|').join('')}---|`];
      for (const row of own) lines.push(`| ${row.feature} | ${targets.map((target) => row.statuses[target] ?? '').join(' | ')} | ${row.note} |`);
      return lines.join('\n');
    })
    .join('\n\n');
}
