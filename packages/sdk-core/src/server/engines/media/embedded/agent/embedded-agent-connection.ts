import type { Logger } from 'pino';
import {
  DataPacket,
  DataPacket_Kind,
  DisconnectReason,
  ParticipantInfo_State,
  SipDTMF,
  TrackSource,
  Transcription,
  TranscriptionSegment,
  UserPacket,
  type ParticipantInfo,
} from '@livekit/protocol';
import type {
  AgentRoomConnection,
  AgentRoomEvents,
  AudioOutput,
  IncomingByteStream,
  IncomingTextStream,
  LegacyTranscription,
  PerformRpcOptions,
  PublishVideoOptions,
  RemoteAudioTrack,
  RemoteVideoTrack,
  RoomParticipant,
  RpcInvocation,
  SendDataOptions,
  SendTextOptions,
  TextStreamWriter,
  VideoOutput,
} from '../../agent-transport.js';
import { participantKindName } from '../../participant-kind.js';
import { logListenerError, TypedEmitter } from '../../../../kernel/typed-emitter.js';
import type { ParticipantState } from '../participant-state.js';
import { PublishedAudioTrack } from '../published-audio-track.js';
import type { Room } from '../room.js';
import type { PublishedTrack } from '../published-track.js';
import { PublishedVideoTrack } from '../published-video-track.js';
import { LocalAudioOutput } from './local-audio-output.js';
import { LocalVideoOutput } from './local-video-output.js';
import { LocalMember } from './local-member.js';
import { RemotePcmTrack } from './remote-pcm-track.js';
import { EmbeddedRemoteVideo } from './remote-video-track.js';
import { RpcEndpoint } from './rpc-endpoint.js';
import { IncomingByteStreams } from './byte-streams.js';
import { IncomingTextStreams, OutgoingTextStream } from './text-streams.js';

function toParticipant(info: ParticipantInfo, clientSdk: string | undefined): RoomParticipant {
  return {
    ...(clientSdk ? { clientSdk } : {}),
    identity: info.identity,
    sid: info.sid,
    name: info.name,
    kind: participantKindName(info.kind),
    metadata: info.metadata,
    attributes: { ...info.attributes },
  };
}

/**
 * The agent inside an embedded room: direct calls into the room, no second WebRTC hop.
 *
 * @example
 * const connection = new EmbeddedAgentConnection(state, room, logger);
 * connection.enter();
 * await connection.sendData('{"text":"hi"}', { topic: 'message' });
 */
export class EmbeddedAgentConnection implements AgentRoomConnection {
  readonly member: LocalMember;
  private readonly events: TypedEmitter<AgentRoomEvents>;
  private readonly known = new Map<string, RoomParticipant>();
  private readonly tracks = new Map<string, RemotePcmTrack>();
  private readonly videoTracksBySid = new Map<string, EmbeddedRemoteVideo>();
  private readonly outputs = new Set<LocalAudioOutput | LocalVideoOutput>();
  private readonly rpc: RpcEndpoint;
  private readonly textStreams: IncomingTextStreams;
  private readonly textHandlers = new Map<string, (stream: IncomingTextStream) => void>();
  private readonly byteStreams: IncomingByteStreams;
  private readonly byteHandlers = new Map<string, (stream: IncomingByteStream) => void>();
  private sequence = 0;
  private leftFlag = false;

  constructor(
    private readonly state: ParticipantState,
    private readonly roomHandle: Room,
    private readonly logger: Pick<Logger, 'error'>,
  ) {
    this.events = new TypedEmitter<AgentRoomEvents>(logListenerError(logger, 'embedded agent connection'));
    this.member = new LocalMember(state, {
      participants: (participants) => this.updateParticipants(participants),
      room: (room) => this.events.emit('roomMetadata', room.metadata),
      data: (packet, reliable) => this.receiveData(packet, reliable),
      trackPublished: (track) => this.subscribe(track),
      removed: (reason) => this.finish(`removed: ${DisconnectReason[reason] ?? reason}`),
    });
    this.rpc = new RpcEndpoint((destination, value) => this.sendPacket(new DataPacket({ value, destinationIdentities: [destination] }), true));
    this.textStreams = new IncomingTextStreams(
      (stream) => this.textHandlers.get(stream.topic)?.(stream),
      (topic) => this.textHandlers.has(topic),
    );
    this.byteStreams = new IncomingByteStreams(
      (stream) => this.byteHandlers.get(stream.topic)?.(stream),
      (topic) => this.byteHandlers.has(topic),
    );
  }

  get room(): string {
    return this.roomHandle.name;
  }

  get identity(): string {
    return this.state.identity;
  }

  get sid(): string {
    return this.state.sid;
  }

  /** Joins the room and learns who is already there. */
  enter(): void {
    this.state.state = ParticipantInfo_State.ACTIVE;
    for (const info of this.roomHandle.othersInfo(this.identity)) this.known.set(info.identity, this.participant(info));
    this.roomHandle.join(this.member);
  }

  participants(): RoomParticipant[] {
    return [...this.known.values()];
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
    this.assertJoined();
    const track = new PublishedAudioTrack(this.state, { name: options.name ?? 'agent_voice' });
    const output = new LocalAudioOutput(track, options.sampleRate ?? 48_000, async () => {
      this.outputs.delete(output);
      this.roomHandle.unpublishTrack(this.member, track.sid);
    });
    this.outputs.add(output);
    this.roomHandle.publishTrack(this.member, track);
    return output;
  }

  async publishVideo(options: PublishVideoOptions): Promise<VideoOutput> {
    this.assertJoined();
    const track = new PublishedVideoTrack(this.state, {
      name: options.name ?? 'agent_video',
      source: options.source === 'screen_share' ? TrackSource.SCREEN_SHARE : TrackSource.CAMERA,
      muted: false,
      width: options.width,
      height: options.height,
      layers: [],
      simulcastCodecs: [],
      stream: '',
    });
    const output = new LocalVideoOutput(
      track,
      { width: options.width, height: options.height },
      async () => {
        this.outputs.delete(output);
        this.roomHandle.unpublishTrack(this.member, track.sid);
      },
      (message) => this.logger.error({ track: track.sid }, `the agent's video encoder failed: ${message}`),
    );
    this.outputs.add(output);
    this.roomHandle.publishTrack(this.member, track);
    return output;
  }

  async sendData(payload: Uint8Array | string, options: SendDataOptions = {}): Promise<void> {
    const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
    const reliable = options.reliable ?? true;
    const destinationIdentities = options.destinationIdentities ?? [];
    await this.sendPacket(
      new DataPacket({
        kind: reliable ? DataPacket_Kind.RELIABLE : DataPacket_Kind.LOSSY,
        destinationIdentities,
        value: {
          case: 'user',
          value: new UserPacket({ payload: bytes, destinationIdentities, ...(options.topic !== undefined ? { topic: options.topic } : {}) }),
        },
      }),
      reliable,
    );
  }

  async publishDtmf(code: number, digit: string): Promise<void> {
    await this.sendPacket(new DataPacket({ kind: DataPacket_Kind.RELIABLE, value: { case: 'sipDtmf', value: new SipDTMF({ code, digit }) } }), true);
  }

  async sendText(text: string, options: SendTextOptions): Promise<void> {
    const writer = this.createTextStream(options, Buffer.byteLength(text, 'utf8'));
    await writer.write(text);
    await writer.close();
  }

  async streamText(options: SendTextOptions): Promise<TextStreamWriter> {
    return this.createTextStream(options);
  }

  async sendTranscription(transcription: LegacyTranscription): Promise<void> {
    const value = new Transcription({
      transcribedParticipantIdentity: transcription.participantIdentity,
      trackId: transcription.trackSid,
      segments: transcription.segments.map(
        (segment) =>
          new TranscriptionSegment({
            id: segment.id,
            text: segment.text,
            final: segment.final,
            language: segment.language,
            startTime: BigInt(Math.round(segment.startTimeMs)),
            endTime: BigInt(Math.round(segment.endTimeMs)),
          }),
      ),
    });
    const destinationIdentities = transcription.destinationIdentities ?? [];
    await this.sendPacket(new DataPacket({ kind: DataPacket_Kind.RELIABLE, destinationIdentities, value: { case: 'transcription', value } }), true);
  }

  onTextStream(topic: string, handler: (stream: IncomingTextStream) => void): () => void {
    this.textHandlers.set(topic, handler);
    return () => {
      if (this.textHandlers.get(topic) === handler) this.textHandlers.delete(topic);
    };
  }

  onByteStream(topic: string, handler: (stream: IncomingByteStream) => void): () => void {
    this.byteHandlers.set(topic, handler);
    return () => {
      if (this.byteHandlers.get(topic) === handler) this.byteHandlers.delete(topic);
    };
  }

  registerRpcMethod(method: string, handler: (invocation: RpcInvocation) => Promise<string>): void {
    this.rpc.register(method, handler);
  }

  performRpc(options: PerformRpcOptions): Promise<string> {
    return this.rpc.perform(options);
  }

  async setMetadata(metadata: string): Promise<void> {
    if (this.state.update({ metadata })) this.roomHandle.broadcastParticipant(this.member);
  }

  async setAttributes(attributes: Record<string, string>): Promise<void> {
    if (this.state.update({ attributes })) this.roomHandle.broadcastParticipant(this.member);
  }

  async setRoomMetadata(metadata: string): Promise<void> {
    this.roomHandle.setMetadata(metadata);
  }

  async leave(): Promise<void> {
    if (this.leftFlag) return;
    this.roomHandle.remove(this.member, DisconnectReason.CLIENT_INITIATED);
    this.finish('left');
  }

  private createTextStream(options: SendTextOptions, totalLength?: number): OutgoingTextStream {
    this.assertJoined();
    const destinationIdentities = options.destinationIdentities ?? [];
    const participantIdentity = options.senderIdentity ?? '';
    return new OutgoingTextStream(
      options.topic,
      options.attributes ?? {},
      (value) => this.sendPacket(new DataPacket({ kind: DataPacket_Kind.RELIABLE, destinationIdentities, participantIdentity, value }), true),
      totalLength,
    );
  }

  private async sendPacket(packet: DataPacket, reliable: boolean): Promise<void> {
    this.assertJoined();
    if (reliable) {
      this.sequence += 1;
      packet.sequence = this.sequence;
    }
    this.roomHandle.sendData(this.member, packet, reliable);
  }

  private assertJoined(): void {
    if (this.leftFlag) throw new Error('The agent is no longer in the room');
  }

  private participant(info: ParticipantInfo): RoomParticipant {
    return toParticipant(info, this.roomHandle.member(info.identity)?.state.clientSdk);
  }

  private updateParticipants(participants: ParticipantInfo[]): void {
    for (const info of participants) {
      if (info.identity === this.identity) continue;
      const previous = this.known.get(info.identity);
      if (info.state === ParticipantInfo_State.DISCONNECTED) {
        if (!previous || previous.sid !== info.sid) continue;
        this.known.delete(info.identity);
        this.textStreams.endFrom(info.identity);
        this.byteStreams.endFrom(info.identity);
        this.rpc.participantLeft(info.identity);
        this.events.emit('participantLeft', previous);
        continue;
      }
      const participant = this.participant(info);
      this.known.set(info.identity, participant);
      if (!previous || previous.sid !== info.sid) {
        if (previous) this.events.emit('participantLeft', previous);
        this.events.emit('participantJoined', participant);
      } else if (
        previous.metadata !== participant.metadata ||
        previous.name !== participant.name ||
        JSON.stringify(previous.attributes) !== JSON.stringify(participant.attributes)
      ) {
        this.events.emit('participantUpdated', participant);
      }
    }
  }

  private subscribe(track: PublishedTrack): void {
    if (this.leftFlag || track.ended || this.tracks.has(track.sid) || this.videoTracksBySid.has(track.sid)) return;
    const member = this.roomHandle.member(track.publisher.identity);
    if (!member) return;
    const participant = this.known.get(track.publisher.identity) ?? this.participant(member.state.info());
    if (track.kind === 'video') {
      const remote = new EmbeddedRemoteVideo(track, participant, undefined, (message) =>
        this.logger.error({ track: track.sid }, `decoding a video track failed: ${message}`),
      );
      this.videoTracksBySid.set(track.sid, remote);
      track.onEnded(() => this.videoTracksBySid.delete(track.sid));
      this.events.emit('videoTrack', remote);
      return;
    }
    const remote = new RemotePcmTrack(track, participant);
    this.tracks.set(track.sid, remote);
    track.onEnded(() => this.tracks.delete(track.sid));
    this.events.emit('audioTrack', remote);
  }

  private receiveData(packet: DataPacket, reliable: boolean): void {
    if (this.leftFlag) return;
    const from = packet.participantIdentity;
    const value = packet.value;
    switch (value.case) {
      case 'user':
        this.events.emit('data', { payload: value.value.payload, topic: value.value.topic, from: from || undefined, reliable });
        return;
      case 'sipDtmf':
        this.events.emit('dtmf', { code: value.value.code, digit: value.value.digit, from: from || undefined });
        return;
      case 'streamHeader':
      case 'streamChunk':
      case 'streamTrailer':
        this.textStreams.handle(value, from);
        this.byteStreams.handle(value, from);
        return;
      case 'rpcRequest':
      case 'rpcAck':
      case 'rpcResponse':
        this.rpc.handle(value, from);
        return;
      default:
        return;
    }
  }

  private finish(reason: string): void {
    if (this.leftFlag) return;
    this.leftFlag = true;
    for (const output of this.outputs) void output.close().catch(() => undefined);
    for (const track of this.tracks.values()) track.end();
    this.tracks.clear();
    for (const track of this.videoTracksBySid.values()) track.end();
    this.videoTracksBySid.clear();
    this.textStreams.endAll();
    this.byteStreams.endAll();
    this.rpc.close();
    this.events.emit('disconnected', reason);
    this.events.clear();
  }
}
