import { SignalTarget } from '@livekit/protocol';
import type { MediaStreamTrack, RTCRtpTransceiver } from 'werift';
import type { IceNetworkSettings } from './ice-network.js';
import { MediaPeer, type IceCandidateJson } from './media-peer.js';
import type { PublishedTrack } from './published-track.js';
import type { VideoLayerSettings } from './video-layers.js';

export interface ClientPeersEvents {
  candidate: (candidate: IceCandidateJson, target: SignalTarget) => void;
  /** Dual PC: a server offer for the subscriber connection. */
  offer: (sdp: string, midToTrackId: Record<string, string>, offerId: number) => void;
  /** Single PC: the client must add this many recvonly audio and video sections and re-offer. */
  needSections: (audio: number, video: number) => void;
  data: (payload: Buffer, reliable: boolean) => void;
  remoteAudio: (trackId: string, track: MediaStreamTrack) => void;
  remoteVideo: (trackId: string, transceiver: RTCRtpTransceiver) => void;
  remoteEnded: (trackId: string) => void;
  preferredVideoCodec: (trackId: string) => string | undefined;
  /** The connection that carries media to the client is up (or lost). */
  connected: (connected: boolean) => void;
  channelOpen: () => void;
}

/**
 * The WebRTC side of one client: a single publisher connection (`/rtc/v1`: the client offers,
 * we answer and send on its recvonly sections) or publisher + subscriber (`/rtc`: we offer on the
 * subscriber connection, with our own data channels).
 *
 * @example
 * const peers = new ClientPeers(1, events);
 * const answer = await peers.answer(offerSdp);
 * peers.send(track); // v1: asks the client for a recvonly section; v0: renegotiates
 */
export class ClientPeers {
  readonly publisher: MediaPeer;
  readonly subscriber: MediaPeer | undefined;
  private offerId = 0;
  private renegotiate = false;
  private answeredOnce = false;
  private readonly requestedSections = { audio: 0, video: 0 };

  constructor(
    readonly protocolVersion: 0 | 1,
    private readonly events: ClientPeersEvents,
    network: IceNetworkSettings = {},
  ) {
    this.publisher = new MediaPeer(
      {
        candidate: (candidate) => events.candidate(candidate, SignalTarget.PUBLISHER),
        data: (payload, label) => events.data(payload, label === '_reliable'),
        remoteAudio: (trackId, track) => events.remoteAudio(trackId, track),
        remoteVideo: (trackId, transceiver) => events.remoteVideo(trackId, transceiver),
        remoteEnded: (trackId) => events.remoteEnded(trackId),
        preferredVideoCodec: (trackId) => events.preferredVideoCodec(trackId),
        connectionState: (state) => {
          if (protocolVersion === 1) this.reportState(state);
        },
        channelOpen: () => events.channelOpen(),
      },
      network,
    );
    if (protocolVersion === 0) {
      this.subscriber = new MediaPeer(
        {
          candidate: (candidate) => events.candidate(candidate, SignalTarget.SUBSCRIBER),
          data: (payload, label) => events.data(payload, label === '_reliable'),
          remoteAudio: () => undefined,
          remoteVideo: () => undefined,
          remoteEnded: () => undefined,
          connectionState: (state) => this.reportState(state),
          channelOpen: () => events.channelOpen(),
        },
        network,
      );
      this.subscriber.createChannels();
    }
  }

  /** The connection that carries what we send (media and data). */
  private get sendingPeer(): MediaPeer {
    return this.subscriber ?? this.publisher;
  }

  async answer(sdp: string): Promise<{ sdp: string; midToTrackId: Record<string, string> }> {
    const answer = await this.publisher.answer(sdp);
    this.answeredOnce = true;
    if (this.protocolVersion === 1) {
      this.requestedSections.audio = 0;
      this.requestedSections.video = 0;
      this.requestSectionsIfNeeded();
    }
    return this.protocolVersion === 1 ? answer : { sdp: answer.sdp, midToTrackId: {} };
  }

  async acceptAnswer(sdp: string): Promise<void> {
    if (!this.subscriber) return;
    await this.subscriber.acceptAnswer(sdp);
    if (this.renegotiate) await this.negotiateSubscriber();
  }

  addCandidate(candidate: IceCandidateJson, target: SignalTarget): Promise<void> {
    const peer = target === SignalTarget.SUBSCRIBER && this.subscriber ? this.subscriber : this.publisher;
    return peer.addCandidate(candidate);
  }

  /** Dual PC: sends the (first or next) subscriber offer. */
  async negotiateSubscriber(iceRestart = false): Promise<void> {
    const subscriber = this.subscriber;
    if (!subscriber) return;
    if (subscriber.signalingState === 'have-local-offer' && !iceRestart) {
      this.renegotiate = true;
      return;
    }
    this.renegotiate = false;
    const offer = await subscriber.offer(iceRestart);
    this.offerId += 1;
    this.events.offer(offer.sdp, offer.midToTrackId, this.offerId);
  }

  send(track: PublishedTrack): void {
    this.sendingPeer.send(track);
    if (this.protocolVersion === 0) void this.negotiateSubscriber().catch(() => undefined);
    else this.requestSectionsIfNeeded();
  }

  stopSending(trackSid: string): void {
    const hadSection = this.sendingPeer.stopSending(trackSid);
    if (hadSection && this.protocolVersion === 0) void this.negotiateSubscriber().catch(() => undefined);
  }

  sending(trackSid: string): boolean {
    return this.sendingPeer.sending(trackSid);
  }

  setVideoSettings(trackSid: string, settings: VideoLayerSettings): void {
    this.sendingPeer.setVideoSettings(trackSid, settings);
  }

  forwardedLayer(trackSid: string): string | undefined {
    return this.sendingPeer.forwardedLayer(trackSid);
  }

  sendData(payload: Uint8Array, reliable: boolean): boolean {
    return this.sendingPeer.sendData(reliable ? '_reliable' : '_lossy', payload);
  }

  /** Whether data sent to the client is still on its way (not yet acknowledged). */
  dataPending(): boolean {
    return this.sendingPeer.dataPending();
  }

  canSendData(reliable: boolean): boolean {
    return this.sendingPeer.hasChannel(reliable ? '_reliable' : '_lossy');
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher.close(), this.subscriber?.close()]);
  }

  private requestSectionsIfNeeded(): void {
    // Before the first answer the join offer's recvonly sections are still to come.
    if (!this.answeredOnce) return;
    const audio = Math.max(0, this.publisher.unboundCount('audio') - this.requestedSections.audio);
    const video = Math.max(0, this.publisher.unboundCount('video') - this.requestedSections.video);
    if (audio === 0 && video === 0) return;
    this.requestedSections.audio += audio;
    this.requestedSections.video += video;
    this.events.needSections(audio, video);
  }

  private reportState(state: string): void {
    if (state === 'connected') this.events.connected(true);
    else if (state === 'failed' || state === 'closed' || state === 'disconnected') this.events.connected(false);
  }
}
