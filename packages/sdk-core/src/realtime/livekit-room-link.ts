import {
  ConnectionError as LiveKitConnectionError,
  ConnectionErrorReason,
  ConnectionState,
  DefaultReconnectPolicy,
  DisconnectReason,
  Room,
  RoomEvent,
  Track,
  type LocalAudioTrack,
  type LocalVideoTrack,
  type Participant,
  type RemoteAudioTrack,
  type RemoteVideoTrack,
  type RemoteParticipant,
  type RemoteTrack,
  type RoomOptions,
} from 'livekit-client';
import { MESSAGE_TOPIC } from '../contract/wire.js';
import { ConnectionError } from '../errors/transport-errors.js';
import { isAgentParticipant, type ParticipantView } from './agent-participant.js';
import { mediaDeviceError } from './media-device-error.js';
import { receivedData, receivedParticipant } from './received-data.js';
import { MicrophoneSuppression } from './noise-suppression/microphone-suppression.js';
import type { RealtimeInput, RoomDisconnectCause } from './session-actions.js';
import { TranscriptStreams } from './transcript-streams.js';

/** Room events as reducer inputs, without the attempt (the link adds it). */
type RoomInput = RealtimeInput extends infer I ? (I extends { attempt: number } ? Omit<I, 'attempt'> : never) : never;

export interface RoomLinkOptions {
  attempt: number;
  dispatch: (input: RealtimeInput) => void;
  roomOptions?: RoomOptions;
  /** The agent's speech starts silenced. */
  agentSpeechMuted?: boolean;
  /** Where the agent's audio plays; a hidden element appended to the document otherwise. */
  audioElement?: HTMLAudioElement;
  /** Name of the published microphone track (an app run's Publish node takes `<node id>:audio`). */
  microphoneTrackName?: string;
  /** Name of the published camera track (an app run's Publish node takes `<node id>:video`). */
  cameraTrackName?: string;
  /**
   * Turn the microphone on while connecting: with the pre-connect buffer, what is said from Start reaches the agent
   * (a failure here is reported by the enabling the session does once joined).
   */
  microphoneWhileConnecting?: boolean;
  /** Run the microphone through the noise suppressor from its publication on (decision 0116). */
  noiseSuppression?: boolean;
}

/**
 * LiveKit's retry delays capped at 2 s (its own cap is 7 s), for about 40 s: a client back on the network (or after
 * the server gave up its session, which then takes a full rejoin) is connected again within ~2 s, not ~7 s.
 */
const RECONNECT_POLICY = new DefaultReconnectPolicy([0, 300, 1200, ...Array.from({ length: 18 }, () => 2000)]);

export function participantView(participant: Participant): ParticipantView {
  return receivedParticipant(participant);
}

function disconnectCause(reason: DisconnectReason | undefined): RoomDisconnectCause {
  switch (reason) {
    case DisconnectReason.CLIENT_INITIATED:
      return 'client';
    case DisconnectReason.ROOM_DELETED:
    case DisconnectReason.ROOM_CLOSED:
      return 'room_closed';
    case DisconnectReason.PARTICIPANT_REMOVED:
    case DisconnectReason.DUPLICATE_IDENTITY:
      return 'removed';
    default:
      return 'connection_lost';
  }
}

/** LiveKit's join failures in the platform's error family. */
export function joinError(error: unknown): Error {
  if (error instanceof LiveKitConnectionError) {
    const reason =
      error.reason === ConnectionErrorReason.NotAllowed ? 'unauthorized' : error.reason === ConnectionErrorReason.Cancelled ? 'closed' : 'server_unreachable';
    return new ConnectionError(reason, `could not join the session's room: ${error.message}`, { cause: error });
  }
  // E.g. "LiveKit doesn't seem to be supported on this browser" (no WebRTC).
  const message = error instanceof Error ? error.message : String(error);
  return new ConnectionError('media_failed', `could not join the session's room: ${message}`, { cause: error });
}

/**
 * One attempt's LiveKit room: turns its events into reducer inputs, plays the agent's audio and carries
 * out the shell's room effects. Never outlives the attempt.
 */
export class LiveKitRoomLink {
  readonly room: Room;
  private agentTrack: RemoteAudioTrack | undefined;
  private agentVideo: RemoteVideoTrack | undefined;
  private ownElement: HTMLMediaElement | undefined;
  private closed = false;
  private speechMuted: boolean;
  private readonly suppression: MicrophoneSuppression;
  private readonly transcriptStreams: TranscriptStreams;

  constructor(private readonly options: RoomLinkOptions) {
    // preConnectBuffer (read from the publish defaults): what is said before the agent subscribes reaches it as a byte stream.
    const publishDefaults = { preConnectBuffer: true, ...options.roomOptions?.publishDefaults };
    this.room = new Room({ reconnectPolicy: RECONNECT_POLICY, ...options.roomOptions, publishDefaults });
    this.speechMuted = options.agentSpeechMuted ?? false;
    this.suppression = new MicrophoneSuppression(this.room, options.noiseSuppression ?? false, (report) =>
      this.send('error' in report ? { type: 'noise_suppression_failed', error: report.error } : { type: 'noise_suppression_changed', active: report.active }),
    );
    this.transcriptStreams = new TranscriptStreams(
      this.room,
      (identity) => {
        const sender = this.room.remoteParticipants.get(identity);
        return sender !== undefined && isAgentParticipant(participantView(sender));
      },
      (transcription) => this.send({ type: 'transcript_streamed', transcription }),
    );
    this.listen();
  }

  private send(input: RoomInput): void {
    if (this.closed && input.type !== 'room_disconnected') return;
    this.options.dispatch({ ...input, attempt: this.options.attempt });
  }

  private listen(): void {
    const room = this.room;
    room
      .on(RoomEvent.ParticipantConnected, (participant) => this.send({ type: 'participant_joined', participant: participantView(participant) }))
      .on(RoomEvent.ParticipantDisconnected, (participant) => this.send({ type: 'participant_left', identity: participant.identity }))
      .on(RoomEvent.ParticipantMetadataChanged, (_metadata, participant) => this.updated(participant))
      .on(RoomEvent.ParticipantAttributesChanged, (_changed, participant) => this.updated(participant))
      .on(RoomEvent.DataReceived, (payload, participant, _kind, topic) => {
        // Parsed here, at the edge (unknown topics and malformed payloads stop here): the reducer takes typed packets.
        const input = receivedData(topic, new TextDecoder().decode(payload), participant ? participantView(participant) : undefined);
        if (input?.packet.topic === MESSAGE_TOPIC && input.from && isAgentParticipant(input.from)) this.transcriptStreams.sentAsPacket(input.packet.payload);
        if (input) this.send(input);
      })
      .on(RoomEvent.RoomMetadataChanged, (metadata) => this.send({ type: 'room_metadata_changed', metadata }))
      .on(RoomEvent.Reconnecting, () => this.send({ type: 'reconnecting', reason: 'network' }))
      .on(RoomEvent.SignalReconnecting, () => this.send({ type: 'reconnecting', reason: 'signal' }))
      .on(RoomEvent.Reconnected, () => this.send({ type: 'reconnected', participants: this.participants() }))
      .on(RoomEvent.Disconnected, (reason) => {
        this.releaseAudio();
        this.send({ type: 'room_disconnected', cause: disconnectCause(reason), ...(reason !== undefined ? { detail: DisconnectReason[reason] } : {}) });
      })
      .on(RoomEvent.AudioPlaybackStatusChanged, () => this.send({ type: 'audio_playback_changed', canPlay: room.canPlaybackAudio }))
      .on(RoomEvent.TrackSubscribed, (track, _publication, participant) => this.trackSubscribed(track, participant))
      // A microphone published (at join, later, or anew after a rejoin) gets the noise suppressor when it is wanted.
      .on(RoomEvent.LocalTrackPublished, (publication) => {
        if (publication.source === Track.Source.Microphone) this.suppression.apply().catch(() => undefined);
      })
      // Stopped elsewhere: the browser's "Stop sharing" button, a camera unplugged.
      .on(RoomEvent.LocalTrackUnpublished, (publication) => {
        if (publication.source === Track.Source.ScreenShare) this.send({ type: 'screen_share_changed', enabled: false });
        else if (publication.source === Track.Source.Camera) this.send({ type: 'camera_changed', enabled: false });
      })
      .on(RoomEvent.TrackUnsubscribed, (track) => {
        if (track === this.agentVideo) {
          this.agentVideo = undefined;
          this.send({ type: 'agent_video_changed', subscribed: false });
          return;
        }
        if (track !== this.agentTrack) return;
        this.releaseAudio();
        this.send({ type: 'agent_audio_changed', subscribed: false });
      });
  }

  private updated(participant: Participant): void {
    if (participant === this.room.localParticipant) return;
    this.send({ type: 'participant_updated', participant: participantView(participant) });
  }

  private participants(): ParticipantView[] {
    return [...this.room.remoteParticipants.values()].map(participantView);
  }

  private trackSubscribed(track: RemoteTrack, participant: RemoteParticipant): void {
    if (!isAgentParticipant(participantView(participant))) return;
    if (track.kind === Track.Kind.Video) {
      // The newest of the agent's video tracks (an app run's Output `video`, `<node id>:video`).
      this.agentVideo = track as RemoteVideoTrack;
      this.send({ type: 'agent_video_changed', subscribed: true });
      return;
    }
    if (track.kind !== Track.Kind.Audio) return;
    this.releaseAudio();
    const audio = track as RemoteAudioTrack;
    this.agentTrack = audio;
    const element = this.options.audioElement ? audio.attach(this.options.audioElement) : audio.attach();
    element.muted = this.speechMuted;
    if (!this.options.audioElement && typeof document !== 'undefined') {
      // Chromium only pulls remote WebRTC audio that is attached to a playing media element.
      element.hidden = true;
      document.body.append(element);
      this.ownElement = element;
    }
    this.send({ type: 'agent_audio_changed', subscribed: true });
  }

  private releaseAudio(): void {
    this.agentTrack?.detach();
    this.agentTrack = undefined;
    this.ownElement?.remove();
    this.ownElement = undefined;
  }

  /**
   * Silences the agent's audio element (the track stays subscribed: level meters and turn latencies keep
   * working, and unmuting is instant).
   */
  setAgentSpeechMuted(muted: boolean): void {
    this.speechMuted = muted;
    for (const element of this.agentTrack?.attachedElements ?? []) element.muted = muted;
  }

  /** The agent's subscribed audio track, for level meters. */
  get agentAudioTrack(): RemoteAudioTrack | undefined {
    return this.agentTrack;
  }

  /** The published microphone track, for level meters. */
  get microphoneTrack(): LocalAudioTrack | undefined {
    return this.room.localParticipant.getTrackPublication(Track.Source.Microphone)?.audioTrack;
  }

  /** The agent's subscribed video track (the newest when it publishes several). */
  get agentVideoTrack(): RemoteVideoTrack | undefined {
    return this.agentVideo;
  }

  /** The published camera track, for a local preview. */
  get cameraTrack(): LocalVideoTrack | undefined {
    return this.room.localParticipant.getTrackPublication(Track.Source.Camera)?.videoTrack;
  }

  /** The published screen share's video track. */
  get screenShareTrack(): LocalVideoTrack | undefined {
    return this.room.localParticipant.getTrackPublication(Track.Source.ScreenShare)?.videoTrack;
  }

  /** Joins, then reports the room as it is (participants already there, metadata, playback). */
  async join(url: string, token: string): Promise<void> {
    if (this.options.microphoneWhileConnecting) void this.setMicrophone(true).catch(() => false);
    await this.room.connect(url, token, { autoSubscribe: true });
    if (this.closed) return;
    if (this.room.state === ConnectionState.Disconnected) throw new ConnectionError('closed', 'the room connection closed right after joining');
    this.send({ type: 'room_joined', participants: this.participants(), roomMetadata: this.room.metadata, canPlayAudio: this.room.canPlaybackAudio });
  }

  /** Publishes (or unmutes) / mutes the microphone; resolves with whether it is now enabled. */
  async setMicrophone(enabled: boolean): Promise<boolean> {
    const name = this.options.microphoneTrackName;
    await this.room.localParticipant.setMicrophoneEnabled(enabled, undefined, name ? { name } : undefined);
    return this.room.localParticipant.isMicrophoneEnabled;
  }

  /** Publishes (or unmutes) / mutes the camera; resolves with whether it is now enabled; a refusal as a `MediaDeviceError`. */
  async setCamera(enabled: boolean): Promise<boolean> {
    const name = this.options.cameraTrackName;
    try {
      await this.room.localParticipant.setCameraEnabled(enabled, undefined, name ? { name } : undefined);
    } catch (error) {
      throw mediaDeviceError('camera', error);
    }
    return this.room.localParticipant.isCameraEnabled;
  }

  /** Starts (the browser's picker) / stops sharing the screen, with its audio where the browser offers it. */
  async setScreenShare(enabled: boolean): Promise<boolean> {
    try {
      await this.room.localParticipant.setScreenShareEnabled(enabled, { audio: true });
    } catch (error) {
      throw mediaDeviceError('screen_share', error);
    }
    return this.room.localParticipant.isScreenShareEnabled;
  }

  /** Turns noise suppression of the microphone on or off; resolves with whether it runs on the published microphone now. */
  setNoiseSuppression(enabled: boolean): Promise<boolean> {
    return this.suppression.set(enabled);
  }

  async publish(topic: string, text: string, destinationIdentities: string[]): Promise<void> {
    await this.room.localParticipant.publishData(new TextEncoder().encode(text), { reliable: true, topic, destinationIdentities });
  }

  async startAudio(): Promise<boolean> {
    await this.room.startAudio();
    return this.room.canPlaybackAudio;
  }

  async leave(): Promise<void> {
    this.closed = true;
    this.releaseAudio();
    this.agentVideo = undefined;
    await this.room.disconnect();
  }
}
