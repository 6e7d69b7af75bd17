import type { Logger } from 'pino';
import {
  AudioFrame as LivekitAudioFrame,
  AudioSource,
  AudioStream,
  DataPacketKind,
  LocalAudioTrack,
  RoomEvent,
  RpcError,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  type Participant,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
  type Room,
} from '@livekit/rtc-node';
import type {
  AgentRoomConnection,
  AgentRoomEvents,
  AudioOutput,
  IncomingByteStream,
  IncomingTextStream,
  PerformRpcOptions,
  PublishVideoOptions,
  RemoteAudioTrack,
  RemoteVideoTrack,
  RoomParticipant,
  RpcInvocation,
  SendDataOptions,
  LegacyTranscription,
  SendTextOptions,
  TextStreamWriter,
  VideoOutput,
} from '../agent-transport.js';
import type { AudioFrame } from '../audio/audio-frame.js';
import { participantKindName } from '../participant-kind.js';
import { RpcCallError } from '../rpc-error.js';
import { logListenerError, TypedEmitter } from '../../../kernel/typed-emitter.js';
import { LivekitRemoteVideo, publishLivekitVideo } from './livekit-video.js';

function toParticipant(participant: Participant): RoomParticipant {
  return {
    identity: participant.identity,
    sid: participant.sid ?? '',
    name: participant.name ?? '',
    kind: participantKindName(Number(participant.kind ?? 0)),
    metadata: participant.metadata ?? '',
    attributes: { ...participant.attributes },
  };
}

/** Splits PCM into 10 ms frames: the size the native audio source is fed in. */
function* tenMillisecondFrames(frame: AudioFrame): Generator<Int16Array> {
  const step = (frame.sampleRate / 100) * frame.channels;
  for (let offset = 0; offset < frame.samples.length; offset += step) yield frame.samples.subarray(offset, offset + step);
}

class LivekitAudioOutput implements AudioOutput {
  constructor(
    readonly trackSid: string,
    private readonly source: AudioSource,
    private readonly sampleRate: number,
    private readonly onClose: () => Promise<void>,
  ) {}

  get queuedMs(): number {
    return this.source.queuedDuration;
  }

  async write(frame: AudioFrame): Promise<void> {
    if (frame.sampleRate !== this.sampleRate) throw new RangeError(`Expected ${this.sampleRate} Hz audio, got ${frame.sampleRate} Hz`);
    for (const samples of tenMillisecondFrames(frame)) {
      const perChannel = samples.length / frame.channels;
      await this.source.captureFrame(new LivekitAudioFrame(Int16Array.from(samples), frame.sampleRate, frame.channels, perChannel));
    }
  }

  flush(): number {
    const dropped = this.source.queuedDuration;
    this.source.clearQueue();
    return dropped;
  }

  drained(): Promise<void> {
    return this.source.waitForPlayout();
  }

  async close(): Promise<void> {
    await this.onClose();
    await this.source.close();
  }
}

class LivekitRemoteAudio implements RemoteAudioTrack {
  constructor(
    readonly trackSid: string,
    readonly name: string,
    readonly participant: RoomParticipant,
    private readonly track: RemoteTrack,
  ) {}

  async *frames(): AsyncIterable<AudioFrame> {
    const stream = new AudioStream(this.track, { sampleRate: 48_000, numChannels: 1 });
    const reader = stream.getReader();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done || !value) return;
        yield { samples: value.data, sampleRate: value.sampleRate, channels: value.channels };
      }
    } finally {
      reader.releaseLock();
      await stream.cancel().catch(() => undefined);
    }
  }
}

/**
 * The agent in a room of a LiveKit deployment, through `@livekit/rtc-node` (native WebRTC).
 * Room metadata goes through the RoomService API (participants cannot set it).
 *
 * @example
 * const connection = new LivekitRoomConnection(room, 'session_1', (metadata) => rooms.updateRoomMetadata('session_1', metadata), logger);
 * await room.connect(url, token);
 */
export class LivekitRoomConnection implements AgentRoomConnection {
  private readonly events: TypedEmitter<AgentRoomEvents>;
  private readonly tracks = new Map<string, LivekitRemoteAudio>();
  private readonly videoTracksBySid = new Map<string, LivekitRemoteVideo>();
  private leftFlag = false;

  constructor(
    private readonly livekitRoom: Room,
    readonly room: string,
    private readonly updateRoomMetadata: (metadata: string) => Promise<void>,
    logger: Pick<Logger, 'error'>,
  ) {
    this.events = new TypedEmitter<AgentRoomEvents>(logListenerError(logger, 'LiveKit room connection'));
    const emitParticipant = (participant: Participant) => {
      if (participant.identity !== this.identity) this.events.emit('participantUpdated', toParticipant(participant));
    };
    livekitRoom
      .on(RoomEvent.ParticipantConnected, (participant: RemoteParticipant) => this.events.emit('participantJoined', toParticipant(participant)))
      .on(RoomEvent.ParticipantDisconnected, (participant: RemoteParticipant) => this.events.emit('participantLeft', toParticipant(participant)))
      .on(RoomEvent.ParticipantMetadataChanged, (_metadata: string | undefined, participant: Participant) => emitParticipant(participant))
      .on(RoomEvent.ParticipantAttributesChanged, (_changed: Record<string, string>, participant: Participant) => emitParticipant(participant))
      .on(RoomEvent.ParticipantNameChanged, (_name: string, participant: Participant) => emitParticipant(participant))
      .on(RoomEvent.RoomMetadataChanged, (metadata: string) => this.events.emit('roomMetadata', metadata))
      .on(RoomEvent.TrackSubscribed, (track: RemoteTrack, publication: RemoteTrackPublication, participant: RemoteParticipant) => {
        const sid = publication.sid ?? track.sid ?? '';
        if (track.kind === TrackKind.KIND_VIDEO) {
          const source = publication.source === TrackSource.SOURCE_SCREENSHARE ? 'screen_share' : 'camera';
          const remote = new LivekitRemoteVideo(sid, publication.name ?? '', source, toParticipant(participant), track);
          this.videoTracksBySid.set(sid, remote);
          this.events.emit('videoTrack', remote);
          return;
        }
        if (track.kind !== TrackKind.KIND_AUDIO) return;
        const remote = new LivekitRemoteAudio(sid, publication.name ?? '', toParticipant(participant), track);
        this.tracks.set(sid, remote);
        this.events.emit('audioTrack', remote);
      })
      .on(RoomEvent.TrackUnsubscribed, (_track: RemoteTrack, publication: RemoteTrackPublication) => {
        this.tracks.delete(publication.sid ?? '');
        this.videoTracksBySid.delete(publication.sid ?? '');
      })
      .on(RoomEvent.DataReceived, (payload: Uint8Array, participant?: RemoteParticipant, kind?: DataPacketKind, topic?: string) => {
        this.events.emit('data', { payload, topic, from: participant?.identity, reliable: kind !== DataPacketKind.KIND_LOSSY });
      })
      .on(RoomEvent.DtmfReceived, (code: number, digit: string, participant?: RemoteParticipant) => {
        this.events.emit('dtmf', { code, digit, from: participant?.identity });
      })
      .on(RoomEvent.Disconnected, (reason: unknown) => this.finish(`disconnected: ${String(reason)}`));
  }

  get identity(): string {
    return this.livekitRoom.localParticipant?.identity ?? '';
  }

  get sid(): string {
    return this.livekitRoom.localParticipant?.sid ?? '';
  }

  participants(): RoomParticipant[] {
    return [...this.livekitRoom.remoteParticipants.values()].map(toParticipant);
  }

  audioTracks(): RemoteAudioTrack[] {
    return [...this.tracks.values()];
  }

  videoTracks(): RemoteVideoTrack[] {
    return [...this.videoTracksBySid.values()];
  }

  on<E extends keyof AgentRoomEvents>(event: E, listener: (...args: AgentRoomEvents[E]) => void): () => void {
    return this.events.on(event, listener);
  }

  async publishAudio(options: { name?: string; sampleRate?: number } = {}): Promise<AudioOutput> {
    const local = this.local();
    const sampleRate = options.sampleRate ?? 48_000;
    const source = new AudioSource(sampleRate, 1, 1000);
    const track = LocalAudioTrack.createAudioTrack(options.name ?? 'agent_voice', source);
    const publication = await local.publishTrack(track, new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }));
    const sid = publication.sid ?? '';
    return new LivekitAudioOutput(sid, source, sampleRate, async () => {
      if (!this.leftFlag) await local.unpublishTrack(sid).catch(() => undefined);
    });
  }

  async publishVideo(options: PublishVideoOptions): Promise<VideoOutput> {
    return publishLivekitVideo(this.local(), options, () => this.leftFlag);
  }

  async publishDtmf(code: number, digit: string): Promise<void> {
    await this.local().publishDtmf(code, digit);
  }

  async sendData(payload: Uint8Array | string, options: SendDataOptions = {}): Promise<void> {
    const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
    await this.local().publishData(bytes, {
      reliable: options.reliable ?? true,
      ...(options.topic !== undefined ? { topic: options.topic } : {}),
      ...(options.destinationIdentities ? { destination_identities: options.destinationIdentities } : {}),
    });
  }

  async sendText(text: string, options: SendTextOptions): Promise<void> {
    if (options.senderIdentity !== undefined) {
      // rtc-node's sendText cannot speak for another participant; a stream can.
      const writer = await this.streamText(options);
      await writer.write(text);
      await writer.close();
      return;
    }
    await this.local().sendText(text, {
      topic: options.topic,
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.destinationIdentities ? { destinationIdentities: options.destinationIdentities } : {}),
    });
  }

  async sendTranscription(transcription: LegacyTranscription): Promise<void> {
    // rtc-node's publishTranscription reaches everyone: a packet meant for some is not sent rather than sent to all.
    if (transcription.destinationIdentities) return;
    await this.local().publishTranscription({
      participantIdentity: transcription.participantIdentity,
      trackSid: transcription.trackSid,
      segments: transcription.segments.map((segment) => ({
        id: segment.id,
        text: segment.text,
        final: segment.final,
        language: segment.language,
        startTime: BigInt(Math.round(segment.startTimeMs)),
        endTime: BigInt(Math.round(segment.endTimeMs)),
      })),
    });
  }

  async streamText(options: SendTextOptions): Promise<TextStreamWriter> {
    const writer = await this.local().streamText({
      topic: options.topic,
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.destinationIdentities ? { destinationIdentities: options.destinationIdentities } : {}),
      ...(options.senderIdentity !== undefined ? { senderIdentity: options.senderIdentity } : {}),
    });
    return {
      id: writer.info.streamId,
      write: (text) => writer.write(text),
      close: () => writer.close(),
    };
  }

  onTextStream(topic: string, handler: (stream: IncomingTextStream) => void): () => void {
    this.livekitRoom.registerTextStreamHandler(topic, (reader, participant) => {
      const info = reader.info;
      handler({
        id: info.streamId,
        topic: info.topic,
        from: participant.identity,
        timestamp: Number(info.timestamp),
        attributes: { ...info.attributes },
        [Symbol.asyncIterator]: () => reader[Symbol.asyncIterator](),
        readAll: () => reader.readAll(),
      });
    });
    return () => this.livekitRoom.unregisterTextStreamHandler(topic);
  }
  onByteStream(topic: string, handler: (stream: IncomingByteStream) => void): () => void {
    this.livekitRoom.registerByteStreamHandler(topic, (reader, participant) => {
      const info = reader.info;
      handler({
        id: info.streamId,
        topic: info.topic,
        from: participant.identity,
        mimeType: info.mimeType,
        timestamp: info.timestamp,
        attributes: { ...info.attributes },
        [Symbol.asyncIterator]: () => reader[Symbol.asyncIterator](),
      });
    });
    return () => this.livekitRoom.unregisterByteStreamHandler(topic);
  }

  registerRpcMethod(method: string, handler: (invocation: RpcInvocation) => Promise<string>): void {
    this.local().registerRpcMethod(method, async (data) => {
      try {
        return await handler({
          requestId: data.requestId,
          callerIdentity: data.callerIdentity,
          payload: data.payload,
          responseTimeoutMs: data.responseTimeout,
        });
      } catch (error) {
        if (error instanceof RpcCallError) throw new RpcError(error.code, error.message, error.data);
        throw error;
      }
    });
  }

  async performRpc(options: PerformRpcOptions): Promise<string> {
    try {
      return await this.local().performRpc({
        destinationIdentity: options.destinationIdentity,
        method: options.method,
        payload: options.payload,
        ...(options.responseTimeoutMs !== undefined ? { responseTimeout: options.responseTimeoutMs } : {}),
      });
    } catch (error) {
      if (error instanceof RpcError) throw new RpcCallError(Number(error.code), error.message, error.data);
      throw error;
    }
  }

  async setMetadata(metadata: string): Promise<void> {
    await this.local().updateMetadata(metadata);
  }

  async setAttributes(attributes: Record<string, string>): Promise<void> {
    await this.local().setAttributes(attributes);
  }

  async setRoomMetadata(metadata: string): Promise<void> {
    await this.updateRoomMetadata(metadata);
  }

  async leave(): Promise<void> {
    if (this.leftFlag) return;
    await this.livekitRoom.disconnect();
    this.finish('left');
  }

  private local() {
    const local = this.livekitRoom.localParticipant;
    if (!local || this.leftFlag) throw new Error('The agent is no longer in the room');
    return local;
  }

  private finish(reason: string): void {
    if (this.leftFlag) return;
    this.leftFlag = true;
    this.tracks.clear();
    this.videoTracksBySid.clear();
    this.events.emit('disconnected', reason);
    this.events.clear();
  }
}
