// The speech engine's public face: code outside engines/speech imports speech only from here
// (tests/architecture/engine-faces.test.ts). Everything re-exported is cheap to load: codecs and engines load their wasm
// decoders, the resampler, native addons, ws and the workers on first use (decision 0076; lazy-start.test.ts).
export { analyzeVoiceSample, VoiceAnalysisError } from './cloning/voice-profile.js';
export { AUDIO_CONTENT_TYPES, encodeAudio, negotiateAudioFormat } from './codecs/audio-format.js';
export { joinArrays } from './codecs/join-arrays.js';
export { createStreamingEncoder, RAW_PCM_RATE, STREAMED_AUDIO_CONTENT_TYPES, type StreamedAudioFormat } from './codecs/streaming-encoders.js';
export { decodeMp3, looksLikeMp3 } from './codecs/mp3.js';
export { UnsupportedOggCodecError } from './codecs/ogg.js';
export { concatPcm, pcmToBase64, pcmToBytes } from './codecs/pcm.js';
export { LinearResampler, resampleLinear } from './codecs/resample.js';
export { encodeWav } from './codecs/wav.js';
export { createSpeech, type Speech } from './create-speech.js';
export type { SpeechConfigInput } from './speech-config.js';
export { PocketsphinxEngine } from './stt/pocketsphinx-engine.js';
export type { DeepgramMetadata, DeepgramResults, DeepgramSpeechStarted, DeepgramUtteranceEnd } from './stt/streaming/deepgram/deepgram-messages.js';
export {
  REALTIME_INVALID_KEY_CLOSE,
  REALTIME_SAMPLE_RATE,
  type RealtimeErrorEvent,
  type RealtimeLogprob,
} from './stt/streaming/openai-realtime/openai-realtime-messages.js';
export { createStreamingStt, type StreamingSttConfig } from './stt/streaming/create-streaming-stt.js';
export type {
  StreamingFinal,
  StreamingInterim,
  StreamingSttClosed,
  StreamingSttEngine,
  StreamingSttError,
  StreamingSttMeter,
  StreamingSttOptions,
  StreamingSttStream,
  StreamingSttUsage,
  TimedWord,
} from './stt/streaming/streaming-stt.js';
export { BaseSttSession, type SttEngine, type SttSession, type SttSessionOptions, type TranscriptWord } from './stt/stt-engine.js';
export { wordErrorRate } from './stt/word-error-rate.js';
export { collectSynthesis } from './tts/collect-synthesis.js';
export { EspeakEngine } from './tts/espeak-engine.js';
export { FliteEngine } from './tts/flite-engine.js';
export { TextSegmenter } from './tts/text-segmenter.js';
export type { PcmChunk, PhonemeTiming, TtsEngine } from './tts/tts-engine.js';
export { TtsServiceUnavailableError, type TtsRouter, type VoiceSelection } from './tts/tts-router.js';
export { VAD_SAMPLE_RATE } from './vad/frame-scorer.js';
export type { VadEvent } from './vad/speech-segmenter.js';
export { VoiceActivityDetector, type VadStream } from './vad/voice-activity-detector.js';
export { vendorPost, type VendorEndpoint } from './vendor-endpoint.js';
export { EngineUnavailableError } from './workers/supervised-worker.js';
