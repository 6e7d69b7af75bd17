import { RTCPeerConnection, SessionDescription, type MediaStreamTrack, type RTCDataChannel, type RTCRtpTransceiver, type RtpPacket } from 'werift';
import { announcedCandidate, announcedSdp, type IceNetworkSettings } from './ice-network.js';
import { peerConfiguration } from './peer-configuration.js';
import type { PublishedTrack } from './published-track.js';
import { sendVideo, type VideoSending } from './video-sending.js';
import type { VideoLayerSettings } from './video-layers.js';

export interface IceCandidateJson {
  candidate: string;
  sdpMid?: string | undefined;
  sdpMLineIndex?: number | undefined;
  usernameFragment?: string | undefined;
}

/** A server track bound to one transceiver of this peer. */
interface SendBinding {
  track: PublishedTrack;
  transceiver: RTCRtpTransceiver | undefined;
  unsubscribe: (() => void) | undefined;
  /** Video: the forwarding of one layer, and the subscriber's settings for it. */
  video: VideoSending | undefined;
  settings: VideoLayerSettings | undefined;
}

export interface MediaPeerEvents {
  candidate: (candidate: IceCandidateJson) => void;
  data: (payload: Buffer, label: string) => void;
  /** A remote audio track (the client's microphone); `trackId` is its msid track id (= AddTrackRequest cid). */
  remoteAudio: (trackId: string, track: MediaStreamTrack) => void;
  /** A remote video section started receiving (camera or screen; one track per simulcast layer in its receiver). */
  remoteVideo: (trackId: string, transceiver: RTCRtpTransceiver) => void;
  /** The client stopped sending a track it published (unpublished: its section no longer sends). */
  remoteEnded: (trackId: string) => void;
  /** The codec (`video/H264`) the client asked for a video track it announces, by track id; undefined: its offer's. */
  preferredVideoCodec?: (trackId: string) => string | undefined;
  connectionState: (state: RTCPeerConnection['connectionState']) => void;
  /** A data channel opened (queued outgoing data can flow). */
  channelOpen: (label: string) => void;
}

/**
 * One werift peer connection with what LiveKit signalling needs: answer client offers binding
 * server tracks onto the client's recvonly audio sections (single PC), or offer our own sendonly
 * sections (dual PC subscriber); data channels by label; trickle in both directions.
 * Every SDP operation runs in order (the client may send a second offer right after connecting).
 *
 * @example
 * const peer = new MediaPeer({ candidate, data, remoteAudio, connectionState, channelOpen });
 * peer.send(agentTrack);
 * const { sdp, midToTrackId } = await peer.answer(clientOfferSdp);
 */
export class MediaPeer {
  readonly pc: RTCPeerConnection;
  private readonly channels = new Map<string, RTCDataChannel>();
  private readonly bindings = new Map<string, SendBinding>();
  /** Sections receiving a client's track, with its track id (to notice the client unpublishing it). */
  private readonly receiving = new Map<RTCRtpTransceiver, string>();
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly events: MediaPeerEvents,
    private readonly network: IceNetworkSettings = {},
  ) {
    this.pc = new RTCPeerConnection(peerConfiguration(network));
    this.pc.onIceCandidate.subscribe((candidate) => {
      if (!candidate?.candidate) return;
      const json = candidate.toJSON();
      events.candidate({ ...json, candidate: announcedCandidate(json.candidate, network.nodeIp) });
    });
    this.pc.onDataChannel.subscribe((channel) => this.adoptChannel(channel));
    this.pc.ontrack = (event) => {
      const trackId = event.transceiver.receiver.remoteTrackId ?? event.track.id ?? '';
      this.receiving.set(event.transceiver, trackId);
      if (event.track.kind === 'audio') events.remoteAudio(trackId, event.track);
      else if (event.track.kind === 'video') events.remoteVideo(trackId, event.transceiver);
    };
    this.pc.connectionStateChange.subscribe((state) => events.connectionState(state));
  }

  get connectionState(): RTCPeerConnection['connectionState'] {
    return this.pc.connectionState;
  }

  /** Tracks of a kind waiting for a transceiver (single PC: a free recvonly section in the next client offer). */
  unboundCount(kind: 'audio' | 'video'): number {
    return [...this.bindings.values()].filter((binding) => !binding.transceiver && binding.track.kind === kind).length;
  }

  /** Creates the server-side data channels (dual PC subscriber). */
  createChannels(): void {
    this.adoptChannel(this.pc.createDataChannel('_reliable', { ordered: true }));
    this.adoptChannel(this.pc.createDataChannel('_lossy', { ordered: false, maxRetransmits: 0 }));
  }

  /** Answers a client offer; returns the SDP and the mid -> track sid map of what we send. */
  answer(sdp: string): Promise<{ sdp: string; midToTrackId: Record<string, string> }> {
    return this.serialize(async () => {
      await this.pc.setRemoteDescription({ type: 'offer', sdp });
      this.preferOfferedVideoCodecs(sdp);
      this.noticeUnpublished();
      this.bindOntoRecvonlySections();
      const answer = await this.pc.createAnswer();
      await this.pc.setLocalDescription(answer);
      return { sdp: announcedSdp(this.pc.localDescription?.sdp ?? answer.sdp, this.network.nodeIp), midToTrackId: this.midToTrackId() };
    });
  }

  /** Creates an offer (dual PC subscriber) carrying our tracks and data channels. */
  offer(iceRestart = false): Promise<{ sdp: string; midToTrackId: Record<string, string> }> {
    return this.serialize(async () => {
      for (const binding of this.bindings.values()) {
        if (binding.transceiver) continue;
        const transceiver = this.pc.addTransceiver(binding.track.kind, { direction: 'sendonly' });
        this.attach(binding, transceiver);
      }
      const offer = await this.pc.createOffer({ iceRestart });
      await this.pc.setLocalDescription(offer);
      return { sdp: announcedSdp(this.pc.localDescription?.sdp ?? offer.sdp, this.network.nodeIp), midToTrackId: this.midToTrackId() };
    });
  }

  acceptAnswer(sdp: string): Promise<void> {
    return this.serialize(async () => {
      if (this.pc.signalingState !== 'have-local-offer') return;
      await this.pc.setRemoteDescription({ type: 'answer', sdp });
    });
  }

  get signalingState(): string {
    return this.pc.signalingState;
  }

  addCandidate(candidate: IceCandidateJson): Promise<void> {
    // Candidates may arrive before the description they belong to; werift buffers them.
    return this.serialize(() => this.pc.addIceCandidate(candidate).catch(() => undefined));
  }

  /** Starts sending a server track (bound at the next answer/offer). */
  send(track: PublishedTrack): void {
    if (this.bindings.has(track.sid) || this.closed) return;
    this.bindings.set(track.sid, { track, transceiver: undefined, unsubscribe: undefined, video: undefined, settings: undefined });
  }

  /** A subscriber's settings for a video track it receives (`UpdateTrackSettings`); kept until the track is bound. */
  setVideoSettings(trackSid: string, settings: VideoLayerSettings): void {
    const binding = this.bindings.get(trackSid);
    if (!binding || binding.track.kind !== 'video') return;
    binding.settings = settings;
    binding.video?.update(settings);
  }

  /** The simulcast layer (rid) forwarded for a video track; undefined while paused or not bound. */
  forwardedLayer(trackSid: string): string | undefined {
    return this.bindings.get(trackSid)?.video?.forwarding;
  }

  /** Stops sending a track; its section goes inactive at the next negotiation. */
  stopSending(trackSid: string): boolean {
    const binding = this.bindings.get(trackSid);
    if (!binding) return false;
    binding.unsubscribe?.();
    if (binding.transceiver) binding.transceiver.setDirection('inactive');
    this.bindings.delete(trackSid);
    return binding.transceiver !== undefined;
  }

  sending(trackSid: string): boolean {
    return this.bindings.has(trackSid);
  }

  /** Sends on a data channel by label; false when the channel is not open. */
  sendData(label: string, payload: Uint8Array): boolean {
    const channel = this.channels.get(label);
    if (!channel || channel.readyState !== 'open') return false;
    try {
      channel.send(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
      return true;
    } catch {
      return false;
    }
  }

  /** Whether data sent on a channel is still on its way: buffered, queued, or not yet acknowledged by the client. */
  dataPending(): boolean {
    for (const channel of this.channels.values()) {
      if (channel.readyState !== 'open') continue;
      if (channel.bufferedAmount > 0) return true;
      const association = channel.sctp.sctp as unknown as { outboundQueue?: unknown[]; sentQueue?: unknown[] };
      if ((association.outboundQueue?.length ?? 0) > 0 || (association.sentQueue?.length ?? 0) > 0) return true;
    }
    return false;
  }

  hasChannel(label: string): boolean {
    return this.channels.get(label)?.readyState === 'open';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const binding of this.bindings.values()) binding.unsubscribe?.();
    this.bindings.clear();
    await this.pc.close().catch(() => undefined);
  }

  private serialize<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.chain.then(operation, operation);
    this.chain = result.catch(() => undefined);
    return result;
  }

  private adoptChannel(channel: RTCDataChannel): void {
    const label = channel.label;
    if (label !== '_reliable' && label !== '_lossy') return;
    this.channels.set(label, channel);
    if (channel.readyState === 'open') this.events.channelOpen(label);
    channel.stateChanged.subscribe((state) => {
      if (state === 'open') this.events.channelOpen(label);
    });
    channel.onMessage.subscribe((message) => {
      if (typeof message === 'string') return;
      this.events.data(message, label);
    });
  }

  /**
   * The codec a publisher asks for is the one it sends: werift orders an answer's codecs as configured (VP8 first),
   * so a video section is answered with the codec its track's `addTrack` named first (livekit-client's `videoCodec`,
   * which LiveKit's server also puts first), else the first its offer lists (the Rust SDK offers its codec first).
   */
  private preferOfferedVideoCodecs(sdp: string): void {
    const configured = this.pc.config.codecs.video ?? [];
    const mime = (codec: { mimeType: string }) => codec.mimeType.toLowerCase();
    for (const media of SessionDescription.parse(sdp).media) {
      if (media.kind !== 'video' || (media.direction !== 'sendonly' && media.direction !== 'sendrecv')) continue;
      const trackId = media.msid?.split(' ')[1];
      const asked = trackId ? this.events.preferredVideoCodec?.(trackId)?.toLowerCase() : undefined;
      const offered = media.rtp.codecs.find(
        (codec) => (asked === undefined || mime(codec) === asked) && configured.some((local) => mime(local) === mime(codec)),
      );
      if (!offered || mime(offered) === mime(configured[0]!)) continue;
      const transceiver = this.pc.getTransceivers().find((candidate) => candidate.mid === media.rtp.muxId);
      const first = configured.filter((local) => mime(local) === mime(offered));
      transceiver?.setCodecPreferences([...first, ...configured.filter((local) => !first.includes(local))]);
    }
  }

  /** A client's offer whose section no longer sends a track it sent: the client unpublished that track. */
  private noticeUnpublished(): void {
    for (const [transceiver, trackId] of this.receiving) {
      const direction = transceiver.offerDirection;
      if (!transceiver.stopped && (direction === 'recvonly' || direction === 'sendrecv')) continue;
      this.receiving.delete(transceiver);
      this.events.remoteEnded(trackId);
    }
  }

  /** Single PC: puts unbound tracks on the client's free recvonly sections of their kind. */
  private bindOntoRecvonlySections(): void {
    const used = new Set([...this.bindings.values()].map((binding) => binding.transceiver).filter(Boolean));
    const free = this.pc
      .getTransceivers()
      .filter(
        (transceiver) => transceiver.offerDirection === 'sendonly' && !used.has(transceiver) && transceiver.direction !== 'inactive' && !transceiver.stopped,
      );
    for (const binding of this.bindings.values()) {
      if (binding.transceiver) continue;
      const index = free.findIndex((transceiver) => transceiver.kind === binding.track.kind);
      if (index < 0) continue;
      const [transceiver] = free.splice(index, 1);
      transceiver!.setDirection('sendonly');
      this.attach(binding, transceiver!);
    }
  }

  private attach(binding: SendBinding, transceiver: RTCRtpTransceiver): void {
    binding.transceiver = transceiver;
    const sender = transceiver.sender as unknown as { streamIds: string[]; trackId: string };
    sender.streamIds = [`${binding.track.publisher.sid}|${binding.track.sid}`];
    sender.trackId = binding.track.sid;
    const track = binding.track;
    if (track.kind === 'video') {
      const video = sendVideo(track, transceiver.sender);
      if (binding.settings) video.update(binding.settings);
      binding.video = video;
      const unsubscribe = track.subscribe((packet, rid) => video.handle(packet, rid));
      binding.unsubscribe = () => {
        unsubscribe();
        video.close();
      };
      return;
    }
    binding.unsubscribe = track.subscribe((packet: RtpPacket) => {
      void transceiver.sender.sendRtp(packet).catch(() => undefined);
    });
  }

  private midToTrackId(): Record<string, string> {
    const map: Record<string, string> = {};
    for (const binding of this.bindings.values()) {
      const mid = binding.transceiver?.mid;
      if (mid != null) map[mid] = binding.track.sid;
    }
    return map;
  }
}
