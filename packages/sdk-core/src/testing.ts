/**
 * Test and benchmark helpers (Node only): the embedded platform in process with a client pointed at it, media
 * helpers for agents and rooms (tones, frames, tracks), and the offline speech engines on their own.
 * Tests, e2e specs and benches of this repository import these from here, never through deep paths.
 *
 * @example
 * import { createTestPlatform } from '@palaver/sdk-core/testing';
 * const platform = await createTestPlatform();
 * const persona = await platform.client.personas.create({ name: 'Ada', description: 'Tutor', voice: 'flite-slt' });
 * await platform.close();
 */
export { createTestPlatform } from './testing/test-platform.js';
export type { TestPlatform } from './testing/test-platform.js';
export { analyseFrames, eventually, nextAudioTrack, playTone } from './testing/media-test-support.js';
export { concatSamples, dominantFrequency, goertzelPower, sineTone, wavFile } from './testing/tone-analysis.js';
export { frameColour, paintFrame, readFrameStamp } from './testing/video-frames.js';
export type { Rgb } from './testing/video-frames.js';
export type { AgentRoomConnection, AudioOutput, IncomingTextStream, MediaService, ReceivedData, RemoteAudioTrack } from './server/engines/media/index.js';
export { DEFAULT_TURN_DETECTION } from './server/voice/listener/human-listener.js';
export type { TurnDetectionOptions } from './server/voice/listener/human-listener.js';
export type { EndOfTurnDecision, TurnMetrics } from './server/kernel/ports/turn-metrics.js';
export {
  agentHostFor,
  AUDIBLE_RMS,
  fliteSpeech,
  HumanParticipant,
  offlineAnswer,
  RecordedEvents,
  rms,
  sessionSpec,
  speechBounds,
} from './testing/agent-harness.js';
export { audibleMs, loudWindowsMs, readWav, type ReadWav } from './testing/recorded-wav.js';
export { firstTokenChunks, startFakeOpenAiUpstream, textChunks, toolCallChunks } from './testing/fake-openai-upstream.js';
export type { FakeOpenAiUpstream, RecordedRequest, Scenario, ScriptedChunk } from './testing/fake-openai-upstream.js';
export { colourName, startFakeVisionUpstream, type FakeVisionUpstream, type VisionRequest } from './testing/fake-vision-upstream.js';
export { dropSchema, postgresReachable, uniqueSchema } from './testing/postgres-schemas.js';
export { graphOf, runGraph } from './testing/graph-kit.js';
export type { GraphKitRun, KitLink, KitNode } from './testing/graph-kit.js';
export { RUNTIME_API_TOPIC, RuntimeApiEnvelope } from './contract/graph/runtime-api.js';
export { runTurnCorpus, turnCorpus } from './testing/turn-corpus.js';
export { startFakeDeepgramLive } from './testing/streaming-stt/fake-deepgram-live.js';
export type { FakeDeepgramLive, FakeDeepgramLiveOptions } from './testing/streaming-stt/fake-deepgram-live.js';
export { startFakeOpenAiRealtimeTranscription } from './testing/streaming-stt/fake-openai-realtime-transcription.js';
export type { FakeOpenAiRealtimeTranscription, FakeOpenAiRealtimeTranscriptionOptions } from './testing/streaming-stt/fake-openai-realtime-transcription.js';
export type { ScriptedTranscriptOptions } from './testing/streaming-stt/scripted-recogniser.js';
export { loudSpan, pushPaced, silence, toneBurst } from './testing/streaming-stt/paced-audio.js';
export { recordStream } from './testing/streaming-stt/recorded-stream.js';
export { startHostedStreamingStt } from './testing/streaming-stt/hosted-streaming-stt.js';
export type { HostedStreamingStt, HostedStreamingSttOptions } from './testing/streaming-stt/hosted-streaming-stt.js';
export { HELD_OUT_VOICES, TUNING_VOICES, voicedTurnCorpus } from './testing/voiced-turn-corpus.js';
export { phoneLine } from './testing/phone-line.js';
// A phone's media parts (G.711, SDES-SRTP, SDP offer/answer), for callers that stand in for phones in benches.
export { createCallCodec, negotiate, newSrtpKeys, offerSecurity, SrtpProtection, writeSdp } from './server/engines/telephony/index.js';
export { startUdpRelay } from './testing/udp-relay.js';
export { opensslAvailable, selfSignedCertificate, type TestCertificate } from './testing/tls-certificate.js';
export type { UdpRelay, UdpRelayOptions } from './testing/udp-relay.js';
export type { CorpusVoice, VoicedTurnCorpus } from './testing/voiced-turn-corpus.js';
export type { RecordedStream, RecordedSttEvent } from './testing/streaming-stt/recorded-stream.js';
export {
  collectSynthesis,
  createStreamingStt,
  decodeMp3,
  EspeakEngine,
  FliteEngine,
  PocketsphinxEngine,
  resampleLinear,
  type StreamingFinal,
  type StreamingInterim,
  type StreamingSttConfig,
  type StreamingSttEngine,
  type StreamingSttStream,
  type TimedWord,
  type TtsEngine,
  VoiceActivityDetector,
  wordErrorRate,
} from './server/engines/speech/index.js';
export type { CorpusStt, TurnCorpusItem, TurnCorpusOptions, TurnCorpusOutcome } from './testing/turn-corpus.js';
export { scoreEndOfTurn } from './server/voice/turn-taking/end-of-turn-scorer.js';
export { turnEndWait, DEFAULT_TURN_END } from './server/voice/turn-taking/turn-end-policy.js';
export type { TurnEndSettings } from './server/voice/turn-taking/turn-end-policy.js';
