/**
 * Names both sides of the wire must agree on: paths outside the REST contract, the agent's room identity,
 * LiveKit topics and attributes (`docs/WIRE-PROTOCOL.md`). Defined once here and imported by the
 * server, the connector and the TTS client. Plain constants: no zod, nothing for a bundle to carry.
 */

/** The streaming TTS websocket. */
export const TTS_SOCKET_PATH = '/v1/voice/websocket';
/** OpenAI's Realtime API (websocket, `?model=<LLM id>`), served over the voice layer (decision 0113). */
export const OPENAI_REALTIME_PATH = '/v1/realtime';
/** Browsers send the API key or usage token as a websocket subprotocol `${OPENAI_KEY_SUBPROTOCOL}<key>`, as OpenAI's clients do. */
export const OPENAI_KEY_SUBPROTOCOL = 'openai-insecure-api-key.';
/** Speech generated for chat completions is served at `${CHAT_AUDIO_PATH}/{id}`. */
export const CHAT_AUDIO_PATH = '/v1/chat/audio';
/** The identity a Palaver agent joins a session's room with. */
export const AGENT_IDENTITY = 'agent';
/** Data topic of transcriptions (`SDKSessionTranscription`), agent -> client. */
export const MESSAGE_TOPIC = 'message';
/** Data topic of errors the human should know of (`{message}`), agent -> client. */
export const ERROR_TOPIC = 'error';
/** Data topic of a typed turn of the human (`{text}`), client -> agent. */
export const CHAT_INPUT_TOPIC = 'chat_input';
/** Data topic of client-side tool calls, both ways. */
export const TOOL_CALL_TOPIC = 'tool_call';
/** Data topic of the runtime API of app runs, both ways. */
export const RUNTIME_API_TOPIC = 'runtime_api';
/** Topic of LiveKit text streams carrying transcripts (LiveKit agent convention). */
export const TRANSCRIPTION_STREAM_TOPIC = 'lk.transcription';
/** Topic of LiveKit text streams carrying typed chat (`useChat().send()` of LiveKit's components; agent convention). */
export const CHAT_STREAM_TOPIC = 'lk.chat';
/** Data topic of LiveKit's older chat packets (`{id, timestamp, message}`, components before text streams), both ways. */
export const LEGACY_CHAT_TOPIC = 'lk-chat-topic';
/** Participant attribute naming the LiveKit Agents worker agent a participant runs (LiveKit agent convention). */
export const AGENT_NAME_ATTRIBUTE = 'lk.agent.name';
/** Participant attribute carrying the agent state (LiveKit agent convention). */
export const AGENT_STATE_ATTRIBUTE = 'lk.agent.state';
/** Text-stream attribute: the utterance a transcript belongs to (LiveKit agent convention). */
export const SEGMENT_ID_ATTRIBUTE = 'lk.segment_id';
/** Text-stream attribute: `true` on an utterance's final transcript (LiveKit agent convention). */
export const TRANSCRIPTION_FINAL_ATTRIBUTE = 'lk.transcription_final';
/** Text-stream attribute: the audio track a transcript was made from (LiveKit agent convention). */
export const TRANSCRIBED_TRACK_ATTRIBUTE = 'lk.transcribed_track_id';
/**
 * Data topic of a client's request, after its connection resumed, for the transcript lines it may have missed
 * (`{after}`), client -> agent; the agent re-sends them on `message` (Palaver extension).
 */
export const TRANSCRIPT_RESUME_TOPIC = 'transcript_resume';
/**
 * The platform's hidden participant in the room of a session whose agent is a LiveKit Agents worker: it observes the
 * worker's transcription streams and answers `transcript_resume` with them (decision 0123), so the client asks it too.
 */
export const PLATFORM_OBSERVER_IDENTITY = 'palaver-observer';
/** Data topic of partner avatar actions: `{action, at}` as JSON. */
export const AVATAR_ACTION_TOPIC = 'avatar_action';
/** Data topic on which the agent reports each turn's timings (`AgentTurnMetrics`), to the human. */
export const TURN_METRICS_TOPIC = 'turn_metrics';
/** Participant attribute of a SIP participant: the platform's id of the call (LiveKit SIP convention). */
export const SIP_CALL_ID_ATTRIBUTE = 'sip.callID';
/** Participant attribute of a SIP participant: the trunk the call came or went through (LiveKit SIP convention). */
export const SIP_TRUNK_ID_ATTRIBUTE = 'sip.trunkID';
/** Participant attribute of an inbound SIP participant: the dispatch rule that placed it (LiveKit SIP convention). */
export const SIP_RULE_ID_ATTRIBUTE = 'sip.ruleID';
/** Participant attribute of a SIP participant: the trunk's number (omitted when the rule hides numbers). */
export const SIP_TRUNK_NUMBER_ATTRIBUTE = 'sip.trunkPhoneNumber';
/** Participant attribute of a SIP participant: the number outside (the caller inbound, the callee outbound). */
export const SIP_PHONE_NUMBER_ATTRIBUTE = 'sip.phoneNumber';
/** Participant attribute of a SIP participant: `dialing`, `ringing`, `active`, `hangup` (LiveKit SIP convention). */
export const SIP_CALL_STATUS_ATTRIBUTE = 'sip.callStatus';
