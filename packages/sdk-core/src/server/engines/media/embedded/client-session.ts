import {
  ClientConfigSetting,
  ClientConfiguration,
  DataPacket,
  DisconnectReason,
  JoinResponse,
  LeaveRequest,
  LeaveRequest_Action,
  MediaSectionsRequirement,
  MuteTrackRequest,
  ParticipantInfo_State,
  ParticipantUpdate,
  Pong,
  ReconnectResponse,
  RequestResponse,
  RequestResponse_Reason,
  RoomUpdate,
  SessionDescription,
  SignalTarget,
  SpeakersChanged,
  TrackPublishedResponse,
  TrackSubscribed,
  TrackType,
  TrickleRequest,
  type AddTrackRequest,
  type ParticipantInfo,
  type UpdateTrackSettings,
  type Room as RoomInfo,
  type SpeakerInfo,
} from '@livekit/protocol';
import type { Logger } from 'pino';
import type { MediaStreamTrack, RTCRtpTransceiver, RtpPacket } from 'werift';
import { ClientPeers } from './client-peers.js';
import type { EndpointSettings } from './endpoint-settings.js';
import { serverInfo } from './endpoint-settings.js';
import type { JoinParameters } from './join-parameters.js';
import type { IceCandidateJson } from './media-peer.js';
import type { ParticipantState } from './participant-state.js';
import { PublishedAudioTrack } from './published-audio-track.js';
import type { PublishedTrack } from './published-track.js';
import { PublishedVideoTrack } from './published-video-track.js';
import { subscribedQualityUpdate } from './video-layers.js';
import { observeAudioLevel } from './rtp-audio-level.js';
import type { Room } from './room.js';
import type { RoomMember } from './room-member.js';
import { OutgoingDataQueue } from './outgoing-data-queue.js';
import { TokenBucket } from './token-bucket.js';
import { CloseCode, type SignalConnection, type SignalRequestMessage } from './signal-connection.js';

/** Tracks one client may publish at once (a flood of addTrack must not grow without bound). */
const MAX_TRACKS = 8;
/** Malformed data packets tolerated before the client is disconnected. */
const MAX_MALFORMED_DATA = 20;
/** How long a removed participant's leave waits for the data still on its way to it. */
const DATA_DRAIN_MS = 1000;
/** Data packets per second relayed for one client (bursts to twice that); the excess is dropped. */
const DATA_PACKETS_PER_SECOND = 500;

/**
 * One remote participant (browser or native SDK) in a room: its signalling socket, its peer
 * connection(s) and what it publishes. Survives a dropped socket until the resume grace ends.
 *
 * @example
 * const session = new ClientSession(state, room, parameters, settings, logger);
 * session.start(connection); // JoinResponse, room join, answer to the join offer
 */
export class ClientSession implements RoomMember {
  private connection: SignalConnection | undefined;
  private readonly peers: ClientPeers;
  /** Tracks announced (`addTrack`) whose media has not arrived yet, by the client's track id (cid). */
  private readonly pendingTracks = new Map<string, PublishedTrack>();
  /** Published tracks by the client's track id (to unpublish them when their section stops sending). */
  private readonly publishedByCid = new Map<string, PublishedTrack>();
  /** Video tracks whose section receives, by the client's track id (a re-offer still names the codec they asked for). */
  private readonly receivingVideo = new Map<string, PublishedVideoTrack>();
  private readonly subscriptions = new Map<string, PublishedTrack>();
  private readonly outgoingData: OutgoingDataQueue;
  private lastSeen = Date.now();
  private readonly watchdog: NodeJS.Timeout;
  private graceTimer: NodeJS.Timeout | undefined;
  private malformedData = 0;
  private readonly dataBudget = new TokenBucket(DATA_PACKETS_PER_SECOND);
  private leftFlag = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly leftListeners: Array<() => void> = [];
  private readonly settledListeners: Array<() => void> = [];
  /** Set when the room removed the participant: its leave waits for the data still on its way. */
  private departure: Promise<void> | undefined;

  constructor(
    readonly state: ParticipantState,
    readonly room: Room,
    private readonly parameters: JoinParameters,
    private readonly settings: EndpointSettings,
    private readonly logger: Logger,
  ) {
    this.peers = new ClientPeers(
      parameters.protocolVersion,
      {
        candidate: (candidate, target) => this.sendCandidate(candidate, target),
        offer: (sdp, midToTrackId, offerId) => this.send({ case: 'offer', value: new SessionDescription({ type: 'offer', sdp, id: offerId, midToTrackId }) }),
        needSections: (audio, video) =>
          this.send({ case: 'mediaSectionsRequirement', value: new MediaSectionsRequirement({ numAudios: audio, numVideos: video }) }),
        data: (payload, reliable) => this.receiveData(payload, reliable),
        remoteAudio: (trackId, track) => this.receiveAudio(trackId, track),
        remoteVideo: (trackId, transceiver) => this.receiveVideo(trackId, transceiver),
        remoteEnded: (trackId) => this.remoteTrackEnded(trackId),
        preferredVideoCodec: (trackId) => {
          const track = this.pendingTracks.get(trackId) ?? this.receivingVideo.get(trackId);
          return track?.kind === 'video' ? track.requestedCodec : undefined;
        },
        connected: (connected) => this.peerConnected(connected),
        channelOpen: () => this.outgoingData.flush(),
      },
      settings.network,
    );
    this.outgoingData = new OutgoingDataQueue((payload, reliable) => this.peers.sendData(payload, reliable));
    this.watchdog = setInterval(() => this.checkAlive(), 1000);
    this.watchdog.unref();
  }

  get left(): boolean {
    return this.leftFlag;
  }

  /**
   * Resolves once the client is past joining: its peer connection connected, or the session ended. A client's
   * SDK acts on a leave only then (one removed earlier waits out its connection timeout and joins again).
   */
  settled(): Promise<void> {
    if (this.leftFlag || this.state.state === ParticipantInfo_State.ACTIVE) return Promise.resolve();
    return new Promise((resolve) => this.settledListeners.push(resolve));
  }

  /** Called once when the session ends (left, removed, timed out). */
  onLeft(listener: () => void): void {
    this.leftListeners.push(listener);
  }

  /** Answers the join: JoinResponse first, then the room sees the participant, then the offer is answered. */
  start(connection: SignalConnection): void {
    this.attach(connection);
    const isV0 = this.parameters.protocolVersion === 0;
    this.send({
      case: 'join',
      value: new JoinResponse({
        room: this.room.info(),
        participant: this.state.info(),
        otherParticipants: this.room.othersInfo(this.state.identity),
        serverVersion: this.settings.serverVersion,
        serverRegion: 'embedded',
        iceServers: [],
        subscriberPrimary: isV0,
        pingInterval: this.settings.pingIntervalSeconds,
        pingTimeout: this.settings.pingTimeoutSeconds,
        serverInfo: serverInfo(this.settings),
        clientConfiguration: new ClientConfiguration({ resumeConnection: ClientConfigSetting.ENABLED }),
      }),
    });
    this.state.state = ParticipantInfo_State.JOINED;
    this.room.join(this);
    const offer = this.parameters.publisherOffer;
    if (offer?.sdp) this.enqueue(() => this.answer(offer));
    if (isV0) this.enqueue(() => this.peers.negotiateSubscriber());
  }

  /** A resumed signalling socket (client kept its peer connection): reconnect response, then ICE restart. */
  resume(connection: SignalConnection): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    const previous = this.connection;
    this.connection = undefined;
    previous?.close(CloseCode.normal, 'resumed elsewhere');
    this.attach(connection);
    this.send({
      case: 'reconnect',
      value: new ReconnectResponse({
        iceServers: [],
        serverInfo: serverInfo(this.settings),
        clientConfiguration: new ClientConfiguration({ resumeConnection: ClientConfigSetting.ENABLED }),
      }),
    });
    this.send({ case: 'update', value: new ParticipantUpdate({ participants: this.room.othersInfo(this.state.identity) }) });
    if (this.parameters.protocolVersion === 0) this.enqueue(() => this.peers.negotiateSubscriber(true));
  }

  deliverParticipants(participants: ParticipantInfo[]): void {
    this.send({ case: 'update', value: new ParticipantUpdate({ participants }) });
  }

  deliverRoom(room: RoomInfo): void {
    this.send({ case: 'roomUpdate', value: new RoomUpdate({ room }) });
  }

  deliverData(packet: DataPacket, reliable: boolean): void {
    this.outgoingData.send(packet.toBinary(), reliable);
  }

  trackPublished(track: PublishedTrack): void {
    if (!this.parameters.autoSubscribe || !this.state.permission.canSubscribe) return;
    this.subscribe(track);
  }

  deliverSpeakers(speakers: SpeakerInfo[]): void {
    this.send({ case: 'speakersChanged', value: new SpeakersChanged({ speakers }) });
  }

  trackMutedByServer(trackSid: string, muted: boolean): void {
    this.send({ case: 'mute', value: new MuteTrackRequest({ sid: trackSid, muted }) });
  }

  setSubscriptions(trackSids: string[], subscribe: boolean): void {
    this.updateSubscription(trackSids, subscribe);
  }

  /** Track sids this session receives. */
  subscribedTracks(): string[] {
    return [...this.subscriptions.keys()];
  }

  /** The simulcast layer (rid, '' without simulcast) this session gets of a video track; undefined while paused. */
  forwardedLayer(trackSid: string): string | undefined {
    return this.peers.forwardedLayer(trackSid);
  }

  /**
   * The room removed the participant: it is told to leave once the data sent to it was delivered (a last notice on
   * the `error` topic must not be cut off by the leave or the closing connection), or after {@link DATA_DRAIN_MS}.
   */
  removed(reason: DisconnectReason): void {
    if (this.leftFlag) return;
    this.leftFlag = true;
    this.departure = this.dataDelivered(DATA_DRAIN_MS).then(() => {
      this.send({ case: 'leave', value: new LeaveRequest({ reason, action: LeaveRequest_Action.DISCONNECT, canReconnect: false }) });
      this.shutdown();
    });
  }

  /** Removes the participant from its room (idempotent). */
  leave(reason: DisconnectReason): void {
    if (this.leftFlag) return;
    this.room.remove(this, reason);
    if (!this.departure) this.shutdown();
  }

  /** Resolves once the participant is gone: told to leave (after its data went out) and its connections closed. */
  async departed(): Promise<void> {
    await this.departure;
  }

  /** Resolves once the data sent to the client was acknowledged, or after `timeoutMs`. */
  private async dataDelivered(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.peers.dataPending() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Test hook: the server drops the socket without a goodbye (simulates a lost network). */
  dropSignal(): void {
    this.connection?.terminate();
  }

  /** Test hook: the server forgets the session without telling the client (simulates a restart). */
  forget(): void {
    if (this.leftFlag) return;
    this.leftFlag = true;
    this.connection?.terminate();
    this.room.remove(this, DisconnectReason.STATE_MISMATCH);
    this.shutdown();
  }

  private attach(connection: SignalConnection): void {
    this.connection = connection;
    this.lastSeen = Date.now();
    connection.onRequest((message) => {
      this.lastSeen = Date.now();
      this.enqueue(() => this.handle(message));
    });
    connection.onClose(() => {
      if (this.connection !== connection) return;
      this.connection = undefined;
      if (this.leftFlag) return;
      // Keep the session (and its peer connection) for a resume until the grace ends.
      this.graceTimer = setTimeout(() => this.leave(DisconnectReason.SIGNAL_CLOSE), this.settings.pingTimeoutSeconds * 1000);
      this.graceTimer.unref();
    });
  }

  private send(message: Parameters<SignalConnection['send']>[0]): void {
    this.connection?.send(message);
  }

  private enqueue(operation: () => Promise<void> | void): void {
    this.chain = this.chain.then(operation).catch((error: unknown) => {
      this.logger.warn({ err: error, participant: this.state.identity }, 'signal request failed');
    });
  }

  private async handle(message: SignalRequestMessage): Promise<void> {
    if (this.leftFlag) return;
    switch (message.case) {
      case 'offer':
        return this.answer(message.value);
      case 'answer':
        return this.peers.acceptAnswer(message.value.sdp);
      case 'trickle':
        return this.addCandidate(message.value);
      case 'addTrack':
        return this.addTrack(message.value);
      case 'mute':
        return this.mute(message.value.sid, message.value.muted);
      case 'subscription':
        return this.updateSubscription(message.value.trackSids, message.value.subscribe);
      case 'trackSetting':
        return this.updateTrackSettings(message.value);
      case 'leave':
        this.leave(DisconnectReason.CLIENT_INITIATED);
        this.connection?.close(CloseCode.normal, 'left');
        return;
      case 'updateMetadata':
        return this.updateMetadata(message.value);
      case 'ping':
        this.send({ case: 'pong', value: BigInt(Date.now()) });
        return;
      case 'pingReq':
        this.send({ case: 'pongResp', value: new Pong({ lastPingTimestamp: message.value.timestamp, timestamp: BigInt(Date.now()) }) });
        return;
      default:
        // Layers (deprecated), sync state, simulation, data tracks: accepted and ignored.
        return;
    }
  }

  private async answer(offer: SessionDescription): Promise<void> {
    if (!offer.sdp || offer.sdp.length > 256 * 1024) throw new Error('offer SDP missing or too large');
    const answer = await this.peers.answer(offer.sdp);
    this.logger.debug({ participant: this.state.identity, ms: Date.now() - this.state.joinedAtMs }, 'answer sent');
    this.send({
      case: 'answer',
      value: new SessionDescription({ type: 'answer', sdp: answer.sdp, id: offer.id, midToTrackId: answer.midToTrackId }),
    });
  }

  private async addCandidate(trickle: TrickleRequest): Promise<void> {
    let candidate: IceCandidateJson;
    try {
      candidate = JSON.parse(trickle.candidateInit) as IceCandidateJson;
    } catch {
      return;
    }
    if (typeof candidate?.candidate !== 'string' || candidate.candidate === '') return;
    await this.peers.addCandidate(candidate, trickle.target);
  }

  private sendCandidate(candidate: IceCandidateJson, target: SignalTarget): void {
    this.send({ case: 'trickle', value: new TrickleRequest({ candidateInit: JSON.stringify(candidate), target }) });
  }

  private addTrack(request: AddTrackRequest): void {
    if (!this.state.permission.canPublish || (request.type !== TrackType.AUDIO && request.type !== TrackType.VIDEO)) return;
    if (this.pendingTracks.has(request.cid) || this.pendingTracks.size + this.state.tracks.size >= MAX_TRACKS) return;
    const track =
      request.type === TrackType.VIDEO
        ? this.announceVideo(request)
        : new PublishedAudioTrack(this.state, {
            name: request.name,
            source: request.source,
            muted: request.muted,
            stereo: request.stereo,
            disableDtx: request.disableDtx,
            stream: request.stream,
            audioFeatures: request.audioFeatures.slice(0, 16),
          });
    this.pendingTracks.set(request.cid, track);
    this.send({ case: 'trackPublished', value: new TrackPublishedResponse({ cid: request.cid, track: track.info }) });
  }

  /** A video track as announced; with simulcast its publisher hears which qualities subscribers need (dynacast). */
  private announceVideo(request: AddTrackRequest): PublishedVideoTrack {
    const track = new PublishedVideoTrack(this.state, request);
    if (track.info.layers.length > 1) {
      track.onWantedQuality((best) =>
        this.send({ case: 'subscribedQualityUpdate', value: subscribedQualityUpdate(track.sid, track.mimeType || track.requestedCodec || 'video/VP8', best) }),
      );
    }
    return track;
  }

  private receiveAudio(trackId: string, mediaTrack: MediaStreamTrack): void {
    const track = this.pendingTracks.get(trackId);
    if (!track || track.kind !== 'audio') return;
    this.pendingTracks.delete(trackId);
    const flowing = this.tellWhenSubscribed(track);
    mediaTrack.onReceiveRtp.subscribe((packet, extensions) => {
      observeAudioLevel(track, packet, extensions);
      track.push(packet);
      flowing();
    });
    this.publish(trackId, track);
  }

  /**
   * A client's camera or screen: one werift track per simulcast layer in the section's receiver (one without
   * simulcast), published to the room with its first packet. Each layer's packets lose the publisher's header extensions (each subscriber's sender writes its own)
   * and go to the subscribers' forwarders; a key-frame request for a layer becomes a PLI to the publisher for its SSRC.
   */
  private receiveVideo(trackId: string, transceiver: RTCRtpTransceiver): void {
    const track = this.pendingTracks.get(trackId);
    if (!track || track.kind !== 'video') return;
    this.pendingTracks.delete(trackId);
    this.receivingVideo.set(trackId, track);
    track.onEnded(() => this.receivingVideo.delete(trackId));
    const receiver = transceiver.receiver;
    const codecs = (receiver as unknown as { codecs: Record<number, { mimeType: string } | undefined> }).codecs;
    const flowing = this.tellWhenSubscribed(track);
    let published = false;
    const layers = receiver.tracks.length > 0 ? receiver.tracks : [receiver.track];
    for (const layer of layers) {
      const rid = layer.rid ?? '';
      let ssrc: number | undefined;
      track.addLayer(rid, () => {
        if (ssrc !== undefined) void receiver.sendRtcpPLI(ssrc).catch(() => undefined);
      });
      layer.onReceiveRtp.subscribe((packet: RtpPacket) => {
        ssrc = packet.header.ssrc;
        packet.header.extensions = [];
        // Published with its first packet, whose payload type names the codec (as LiveKit publishes on its first RTP).
        if (!published) {
          published = true;
          track.setCodec(codecs[packet.header.payloadType]?.mimeType ?? transceiver.codecs[0]?.mimeType ?? 'video/VP8', transceiver.mid ?? undefined);
          this.publish(trackId, track);
        }
        track.push(packet, rid);
        flowing();
      });
    }
  }

  private publish(trackId: string, track: PublishedTrack): void {
    this.publishedByCid.set(trackId, track);
    track.onEnded(() => {
      if (this.publishedByCid.get(trackId) === track) this.publishedByCid.delete(trackId);
    });
    this.room.publishTrack(this, track);
  }

  /**
   * livekit-client stops recording its pre-connect buffer when told someone subscribed (LocalTrackSubscribed), and
   * only hears it once its publication is complete: told when the track has a subscriber and its media flows, as
   * LiveKit tells it when a subscriber's down track binds. Returns what to call when a packet arrives.
   */
  private tellWhenSubscribed(track: PublishedTrack): () => void {
    let flowing = false;
    let told = false;
    const tell = () => {
      if (told || !flowing || track.subscriberCount === 0) return;
      told = true;
      this.send({ case: 'trackSubscribed', value: new TrackSubscribed({ trackSid: track.sid }) });
    };
    track.onFirstSubscriber(tell);
    return () => {
      if (flowing) return;
      flowing = true;
      tell();
    };
  }

  /** The client's section for a published track stopped sending (it unpublished the track): gone from the room. */
  private remoteTrackEnded(trackId: string): void {
    const track = this.publishedByCid.get(trackId);
    if (track) {
      this.publishedByCid.delete(trackId);
      this.room.unpublishTrack(this, track.sid);
    }
    // A video track whose media never came is not in the room: it just ends.
    this.receivingVideo.get(trackId)?.end();
  }

  /** `UpdateTrackSettings`: a subscriber pauses a video track or asks for a smaller size or lower quality. */
  private updateTrackSettings(request: UpdateTrackSettings): void {
    const settings = { disabled: request.disabled, quality: request.quality, width: request.width, height: request.height };
    for (const sid of request.trackSids.slice(0, 64)) {
      if (this.subscriptions.get(sid)?.kind === 'video') this.peers.setVideoSettings(sid, settings);
    }
  }

  private mute(trackSid: string, muted: boolean): void {
    const track = this.state.tracks.get(trackSid);
    if (!track || track.info.muted === muted) return;
    track.info.muted = muted;
    this.state.touch();
    this.room.broadcastParticipant(this);
  }

  private updateSubscription(trackSids: string[], subscribe: boolean): void {
    for (const sid of trackSids.slice(0, 64)) {
      if (!subscribe) {
        this.unsubscribe(sid);
        continue;
      }
      if (!this.state.permission.canSubscribe) return;
      const track = this.room
        .list()
        .map((member) => member.state.tracks.get(sid))
        .find((candidate) => candidate !== undefined);
      if (track && track.publisher.sid !== this.state.sid) this.subscribe(track);
    }
  }

  private subscribe(track: PublishedTrack): void {
    if (this.subscriptions.has(track.sid) || track.ended || this.leftFlag) return;
    this.subscriptions.set(track.sid, track);
    this.peers.send(track);
    track.onEnded(() => this.unsubscribe(track.sid));
  }

  private unsubscribe(trackSid: string): void {
    if (!this.subscriptions.delete(trackSid)) return;
    this.peers.stopSending(trackSid);
  }

  private updateMetadata(request: { requestId: number; name: string; metadata: string; attributes: Record<string, string> }): void {
    if (!this.state.permission.canUpdateMetadata) {
      this.send({
        case: 'requestResponse',
        value: new RequestResponse({
          requestId: request.requestId,
          reason: RequestResponse_Reason.NOT_ALLOWED,
          message: 'does not have permission to update own metadata',
        }),
      });
      return;
    }
    const changed = this.state.update({ name: request.name, metadata: request.metadata, attributes: request.attributes });
    if (changed) {
      this.room.broadcastParticipant(this);
      this.send({ case: 'update', value: new ParticipantUpdate({ participants: [this.state.info()] }) });
    }
    this.send({ case: 'requestResponse', value: new RequestResponse({ requestId: request.requestId, reason: RequestResponse_Reason.OK }) });
  }

  private receiveData(payload: Buffer, reliable: boolean): void {
    if (!this.dataBudget.take()) return;
    let packet: DataPacket;
    try {
      packet = DataPacket.fromBinary(payload);
    } catch {
      this.malformedData += 1;
      if (this.malformedData >= MAX_MALFORMED_DATA) this.leave(DisconnectReason.STATE_MISMATCH);
      return;
    }
    if (!this.state.permission.canPublishData || !packet.value.case) return;
    if (packet.value.case === 'speaker' || packet.value.case === 'encryptedPacket') return;
    this.room.sendData(this, packet, reliable);
  }

  private peerConnected(connected: boolean): void {
    this.logger.debug({ participant: this.state.identity, connected, ms: Date.now() - this.state.joinedAtMs }, 'peer connection state');
    if (!connected || this.leftFlag) return;
    if (this.state.state !== ParticipantInfo_State.ACTIVE) {
      this.state.state = ParticipantInfo_State.ACTIVE;
      this.state.touch();
      this.room.broadcastParticipant(this);
    }
    for (const listener of this.settledListeners.splice(0)) listener();
    this.outgoingData.flush();
  }

  private checkAlive(): void {
    if (this.leftFlag || !this.connection) return;
    if (Date.now() - this.lastSeen > this.settings.pingTimeoutSeconds * 1000) {
      this.logger.info({ participant: this.state.identity, room: this.room.name }, 'participant ping timeout');
      this.connection.close(CloseCode.normal, 'ping timeout');
      this.leave(DisconnectReason.SIGNAL_CLOSE);
    }
  }

  private shutdown(): void {
    this.leftFlag = true;
    clearInterval(this.watchdog);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    for (const track of [...this.pendingTracks.values(), ...this.receivingVideo.values()]) track.end();
    this.pendingTracks.clear();
    this.receivingVideo.clear();
    this.subscriptions.clear();
    this.outgoingData.clear();
    void this.peers.close();
    for (const listener of this.leftListeners.splice(0)) listener();
    for (const listener of this.settledListeners.splice(0)) listener();
    const connection = this.connection;
    if (connection) setTimeout(() => connection.close(CloseCode.normal, 'left'), 50).unref();
  }
}
