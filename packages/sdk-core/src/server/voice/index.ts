/**
 * The voice layer: one pipeline for the built-in agent and the graph's speech nodes. The walk of one spoken
 * turn, top to bottom:
 *
 * 1. listener/      the human's track: resampled once, VAD, STT (per utterance, or the vendor's stream), pauses
 * 2. turn-taking/   at a pause the words decide the wait (end-of-turn scorer), an answer may be prepared (preemption)
 * 3. answering/     the model answers the conversation; tools/ runs the calls it makes (bounded rounds)
 * 4. speaker/       clause by clause to speech, paced to playback, cut at barge-in; speech metered per human
 * 5. transcript/    the words on the room's transcription topics; metrics/ the turn's timings and trace span
 *
 * `VoicePipeline` runs that walk for a room (`voice-pipeline.ts`, `voice-turn.ts`, `turn-queue.ts`); a graph's
 * STT, OpenAICompatibleLLM and TTS nodes each use their part, joined by the run's `VoiceTurns`.
 */
export { VoicePipeline, type VoicePipelineOptions, type VoicePipelineRoom } from './voice-pipeline.js';
export { VoiceTurns, type VoiceTurnsEvents } from './voice-turns.js';
export type { PendingTurn, TurnOutcome } from './voice-turn.js';
export { HumanListener, DEFAULT_TURN_DETECTION, type TurnDetectionOptions, type HeardUtterance, type UtteranceHandler } from './listener/human-listener.js';
export { loadListeningEngines, type ListeningEngines } from './listener/listening-engines.js';
export { resolveTurnDetection, parseTurnDetection } from './settings/turn-detection.js';
export { AnswerPreparer, answersTheSame, type ConversationVersion, type PreparedAnswer } from './turn-taking/answer-preparer.js';
export { Preemption } from './turn-taking/preemption.js';
export { streamAnswer, type AgentChat, type Answer, type AnswerResult, type AnswerUsage } from './answering/answer-stream.js';
export { answerWithTools, type ToolResultMessage, type ToolRoundHandler } from './answering/answer-with-tools.js';
export { AgentSpeaker, textUpTo, type SpokenUtterance } from './speaker/agent-speaker.js';
export { FALLBACK_VOICE, resolveSessionVoice, type AgentVoices, type SessionVoice } from './speaker/agent-voice.js';
export { SessionSpeech } from './speaker/session-speech.js';
export { AgentToolRunner, DEFAULT_AGENT_TOOL_TUNING, type AgentToolTuning } from './tools/agent-tool-runner.js';
export { toolsForModel } from './tools/agent-tool-schema.js';
export { ClientToolCalls } from './tools/client-tool-calls.js';
export { sessionTools, type SessionTools } from './tools/session-tools.js';
export { toolError, toolResultContent } from './tools/tool-result.js';
export { UtteranceTranscript } from './transcript/utterance-transcript.js';
export { wireTurnMetrics } from './metrics/turn-metrics-wire.js';
export { phonemesOf, type FramePhoneme, type SpokenFrame } from './speaker/spoken-phonemes.js';
export { SessionRecorder, RECORDING_SAMPLE_RATE, type RecordedConversation, type RecordedSideName } from './recording/session-recorder.js';
export { observedRecording, storeRecording, type RecordingTarget } from './recording/observed-recording.js';
