import type { AudioFrame } from './audio/audio-frame.js';
import type { VideoFrame } from './video/video-frame.js';

/** What kind of participant a room member is (LiveKit's `ParticipantInfo.Kind`, lower-cased). */
export type ParticipantKind = 'standard' | 'ingress' | 'egress' | 'sip' | 'agent' | 'connector' | 'bridge';

/** A room member as the agent sees it. */
export interface RoomParticipant {
  identity: string;
  /** LiveKit participant sid (`PA_...`). */
  sid: string;
  name: string;
  kind: ParticipantKind;
  metadata: string;
  attributes: Record<string, string>;
  /**
   * The client SDK it joined with, when the transport knows it (the embedded endpoint reads ClientInfo.sdk:
   * `js` for livekit-client); undefined on a LiveKit deployment, whose participant info does not carry it.
   */
  clientSdk?: string;
}

/** A key press on a phone call (LiveKit's `SipDTMF` packet; livekit-client's `RoomEvent.DtmfReceived`). */
export interface ReceivedDtmf {
  /** RFC 4733 event code (0-9, 10 `*`, 11 `#`, 12-15 `A`-`D`). */
  code: number;
  digit: string;
  /** The SIP participant whose caller pressed it. */
  from: string | undefined;
}

/** A data packet received from another participant. */
export interface ReceivedData {
  payload: Uint8Array;
  topic: string | undefined;
  /** Sender identity; undefined when the server sent it. */
  from: string | undefined;
  reliable: boolean;
}

export interface SendDataOptions {
  topic?: string;
  /** Lossy packets may be dropped or reordered (default reliable). */
  reliable?: boolean;
  /** Only these identities receive the packet (default everyone). */
  destinationIdentities?: string[];
}

export interface SendTextOptions {
  topic: string;
  attributes?: Record<string, string>;
  destinationIdentities?: string[];
  /**
   * The participant of the room the text speaks for: LiveKit lets an agent publish a human's transcription as
   * theirs, so clients attribute it to the human. Undefined: the agent itself.
   */
  senderIdentity?: string;
}

/**
 * A transcription in LiveKit's legacy `Transcription` packet (before text streams): what older clients read
 * (`RoomEvent.TranscriptionReceived`, `useVoiceAssistant().agentTranscriptions` of components 1.x/2.x).
 */
export interface LegacyTranscription {
  /** Whose words (the human's or the agent's identity). */
  participantIdentity: string;
  /** The track they were spoken on ('' for typed text). */
  trackSid: string;
  segments: Array<{ id: string; text: string; final: boolean; startTimeMs: number; endTimeMs: number; language: string }>;
  /** Only these identities receive the packet (default everyone). */
  destinationIdentities?: string[];
}

/** An incoming text stream (LiveKit data stream with a text header). */
export interface IncomingTextStream {
  id: string;
  topic: string;
  from: string;
  /** When the sender opened the stream (ms since the epoch, the sender's clock). */
  timestamp: number;
  /** The header's attributes; the trailer's are merged in when the stream ends (LiveKit's final transcription flag may come there). */
  attributes: Record<string, string>;
  /** Chunks as they arrive; ends when the sender closes the stream. */
  [Symbol.asyncIterator](): AsyncIterator<string>;
  /** The whole text once the stream ends. */
  readAll(): Promise<string>;
}

/**
 * An incoming byte stream (LiveKit data stream with a byte header): e.g. livekit-client's pre-connect audio buffer on
 * `lk.agent.pre-connect-audio-buffer` (the microphone recorded before the agent was there, `audio/webm;codecs=opus`).
 */
export interface IncomingByteStream {
  id: string;
  topic: string;
  from: string;
  mimeType: string;
  /** When the sender opened the stream (ms since the epoch, the sender's clock). */
  timestamp: number;
  attributes: Record<string, string>;
  /** Chunks as they arrive; ends when the sender closes the stream. */
  [Symbol.asyncIterator](): AsyncIterator<Uint8Array>;
}

/** A text stream being written: each `write` reaches the receivers at once. */
export interface TextStreamWriter {
  readonly id: string;
  write(text: string): Promise<void>;
  close(): Promise<void>;
}

export interface RpcInvocation {
  requestId: string;
  callerIdentity: string;
  payload: string;
  responseTimeoutMs: number;
}

export interface PerformRpcOptions {
  destinationIdentity: string;
  method: string;
  payload: string;
  /** Default 10 s. */
  responseTimeoutMs?: number;
}

/** One remote participant's audio track, decoded to PCM. */
export interface RemoteAudioTrack {
  trackSid: string;
  /** The name the publisher gave the track (an app run's Publish node reads `<node id>:audio`). */
  name: string;
  participant: RoomParticipant;
  /**
   * The publisher records a pre-connect audio buffer for this track (livekit-client's `preConnectBuffer`:
   * `TF_PRECONNECT_BUFFER` among the track's audio features); undefined when the transport cannot tell (rtc-node).
   */
  preConnectBuffer?: boolean;
  /**
   * Decoded frames (48 kHz mono, 10 or 20 ms each) until the track ends or the agent leaves.
   * Only one consumer should iterate; frames that arrive while nobody reads are buffered up to ~2 s.
   */
  frames(): AsyncIterable<AudioFrame>;
}

/** The agent's published audio track: a paced PCM queue that can be flushed instantly on barge-in. */
export interface AudioOutput {
  readonly trackSid: string;
  /** Queues PCM (any frame length, the output's sample rate, mono); resolves once less than ~200 ms is queued. */
  write(frame: AudioFrame): Promise<void>;
  /** Drops everything queued and not yet sent (barge-in). Returns the milliseconds dropped. */
  flush(): number;
  /** Resolves when everything queued so far has been sent. */
  drained(): Promise<void>;
  /** Milliseconds of audio queued and not yet sent. */
  readonly queuedMs: number;
  /** Unpublishes the track. */
  close(): Promise<void>;
}

/** Where a video track comes from (LiveKit's `TrackSource`). */
export type VideoTrackSource = 'camera' | 'screen_share';

export interface VideoFramesOptions {
  /**
   * At most this many frames per second reach the reader (the decoder drops the others before converting them to
   * RGBA). Default: every frame the publisher sends.
   */
  maxFps?: number;
}

/** One remote participant's camera or screen share, decoded to RGBA frames by the platform. */
export interface RemoteVideoTrack {
  trackSid: string;
  /** The name the publisher gave the track (an app run's Publish node reads `<node id>:video`). */
  name: string;
  source: VideoTrackSource;
  participant: RoomParticipant;
  /**
   * Decoded frames until the track ends or the agent leaves. Decoding starts with the first call and stops when
   * the iteration ends. Only one consumer should iterate; a reader that falls behind gets the newest frames (older
   * ones are dropped, a few are kept).
   */
  frames(options?: VideoFramesOptions): AsyncIterable<VideoFrame>;
}

export interface PublishVideoOptions {
  /** Default `agent_video`. */
  name?: string;
  width: number;
  height: number;
  /** Default `camera`. */
  source?: VideoTrackSource;
}

/** The agent's published video track, fed with RGBA frames (encoded by the transport). */
export interface VideoOutput {
  readonly trackSid: string;
  /**
   * Sends a frame; frames of another size than the track's are scaled to it. Resolves once the encoder took it
   * (a writer faster than the encoder waits).
   */
  write(frame: VideoFrame): Promise<void>;
  /** Unpublishes the track. */
  close(): Promise<void>;
}

export interface AgentRoomEvents {
  participantJoined: [participant: RoomParticipant];
  participantLeft: [participant: RoomParticipant];
  /** Metadata, name or attributes changed. */
  participantUpdated: [participant: RoomParticipant];
  audioTrack: [track: RemoteAudioTrack];
  /** A camera or screen share became available (the agent is subscribed; frames are decoded once read). */
  videoTrack: [track: RemoteVideoTrack];
  data: [data: ReceivedData];
  /** A phone caller pressed a key (the SIP participant published a DTMF packet). */
  dtmf: [dtmf: ReceivedDtmf];
  roomMetadata: [metadata: string];
  /** The agent left or was removed; no further events follow. */
  disconnected: [reason: string];
}

export type AgentRoomEventName = keyof AgentRoomEvents;

/**
 * The agent's presence in one room: what the agent pipeline uses to talk to the people in it.
 * Implementations must not block the caller on the network for longer than the operation needs.
 */
export interface AgentRoomConnection {
  readonly room: string;
  readonly identity: string;
  readonly sid: string;
  /** Everyone else in the room right now. */
  participants(): RoomParticipant[];
  /** Audio tracks of the others currently subscribed. */
  audioTracks(): RemoteAudioTrack[];
  /** Camera and screen-share tracks of the others currently subscribed. */
  videoTracks(): RemoteVideoTrack[];
  on<E extends AgentRoomEventName>(event: E, listener: (...args: AgentRoomEvents[E]) => void): () => void;
  /** Publishes an audio track (source microphone, Opus 48 kHz mono) fed with PCM. */
  publishAudio(options?: { name?: string; sampleRate?: number }): Promise<AudioOutput>;
  /** Publishes a video track (VP8) fed with RGBA frames. */
  publishVideo(options: PublishVideoOptions): Promise<VideoOutput>;
  sendData(payload: Uint8Array | string, options?: SendDataOptions): Promise<void>;
  /** Publishes a key press to the room as LiveKit SIP does (a `SipDTMF` data packet). */
  publishDtmf(code: number, digit: string): Promise<void>;
  sendText(text: string, options: SendTextOptions): Promise<void>;
  streamText(options: SendTextOptions): Promise<TextStreamWriter>;
  /** Publishes a legacy transcription packet (see {@link LegacyTranscription}). */
  sendTranscription(transcription: LegacyTranscription): Promise<void>;
  /** Receives the text streams others open on `topic` (one handler per topic; returns the unregister function). */
  onTextStream(topic: string, handler: (stream: IncomingTextStream) => void): () => void;
  /** Receives the byte streams others open on `topic` (one handler per topic; returns the unregister function). */
  onByteStream(topic: string, handler: (stream: IncomingByteStream) => void): () => void;
  registerRpcMethod(method: string, handler: (invocation: RpcInvocation) => Promise<string>): void;
  performRpc(options: PerformRpcOptions): Promise<string>;
  setMetadata(metadata: string): Promise<void>;
  /** Merges into the agent's attributes (an empty value removes the key). */
  setAttributes(attributes: Record<string, string>): Promise<void>;
  setRoomMetadata(metadata: string): Promise<void>;
  leave(): Promise<void>;
}

export interface JoinRoomOptions {
  room: string;
  /** Default `agent`. */
  identity?: string;
  name?: string;
  metadata?: string;
  attributes?: Record<string, string>;
  /** The participant's kind: `agent` (default), or `sip` for a phone call bridged into the room. */
  kind?: 'agent' | 'sip';
  /** Join unseen by the others (a platform observer of a room whose agent is a LiveKit Agents worker). */
  hidden?: boolean;
  /** Aborting a pending join leaves the room. */
  signal?: AbortSignal;
}

export interface EnsureRoomOptions {
  room: string;
  metadata?: string;
  /** Seconds an empty room lives (default 300). */
  emptyTimeoutSeconds?: number;
}

/**
 * How the agent pipeline reaches rooms: in process against the embedded endpoint, or over
 * `@livekit/rtc-node` against a LiveKit deployment. The pipeline must not know which.
 *
 * @example
 * await transport.ensureRoom({ room: session.id, metadata: JSON.stringify({ session: session.id }) });
 * const connection = await transport.join({ room: session.id });
 * const output = await connection.publishAudio();
 * connection.on('audioTrack', async (track) => { for await (const frame of track.frames()) vad.push(frame); });
 */
export interface AgentTransport {
  readonly kind: 'embedded' | 'livekit';
  ensureRoom(options: EnsureRoomOptions): Promise<void>;
  deleteRoom(room: string): Promise<void>;
  join(options: JoinRoomOptions): Promise<AgentRoomConnection>;
  close(): Promise<void>;
}
