// The media engine's public face: code outside engines/media imports media only from here
// (tests/architecture/engine-faces.test.ts). createMediaService loads the embedded endpoint, the transports,
// livekit-server-sdk and werift with dynamic imports; nothing here loads them (lazy-start.test.ts).
export type { AgentDispatcher } from './agent-dispatcher.js';
export type {
  AgentRoomConnection,
  AgentTransport,
  AudioOutput,
  PublishVideoOptions,
  IncomingByteStream,
  IncomingTextStream,
  LegacyTranscription,
  ReceivedData,
  RemoteAudioTrack,
  RemoteVideoTrack,
  RoomParticipant,
  VideoOutput,
} from './agent-transport.js';
export type { ReceivedDtmf } from './agent-transport.js';
export { answerCall, type CallPeer, type CallPeerEvents } from './call/call-peer.js';
export { createLinearResampler, frameDurationMs, type AudioFrame } from './audio/audio-frame.js';
export {
  decodeWithFfmpeg,
  encodeWithFfmpeg,
  FFMPEG_AUDIO_CONTENT_TYPES,
  sniffFfmpegContainer,
  type FfmpegAudioFormat,
  type FfmpegContainer,
} from './audio/ffmpeg-audio.js';
export { ffmpegAvailable, FfmpegError, ffmpegProgram, runFfmpeg } from './ffmpeg/run-ffmpeg.js';
export { OPUS_FRAME_SAMPLES, OPUS_SAMPLE_RATE, OpusFrameDecoder, OpusFrameEncoder } from './audio/opus-codec.js';
export { TokenBucket } from './embedded/token-bucket.js';
export { webmOpusPackets } from './audio/webm-opus.js';
export { roomServiceCall } from './embedded/room-service-api.js';
export { unservedTwirpRoute, type TwirpAnswer } from './embedded/twirp.js';
export { agentDispatchCall } from './embedded/workers/agent-dispatch-api.js';
export { createMediaService, SIGNAL_PATHS, type MediaService } from './media-service.js';
export { RpcCallError, RpcErrorCode } from './rpc-error.js';
export { decodeJpeg, encodeJpeg, jpegDataUrl } from './video/jpeg-image.js';
export { ClipEncodingError, encodeMp4Clip } from './video/mp4-clip.js';
export { meanColour, solidFrame, type VideoFrame } from './video/video-frame.js';
