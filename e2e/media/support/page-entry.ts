// Bundled with esbuild into the test page: drives the unmodified livekit-client from the tests.
import { ConnectionState, Room, RoomEvent, Track, VideoQuality, type RemoteParticipant, type RemoteTrack, type RemoteTrackPublication } from 'livekit-client';
import { measureStreamTone, type ToneMeasurement } from '../../support/page-audio.js';

interface Received {
  kind: 'data' | 'text';
  topic: string | undefined;
  from: string | undefined;
  text: string;
}

const state = {
  room: undefined as Room | undefined,
  events: [] as string[],
  received: [] as Received[],
  audioElements: [] as HTMLMediaElement[],
  remoteAudio: [] as MediaStreamTrack[],
  /** The last subscribed remote video: its element and publication. */
  video: undefined as { element: HTMLVideoElement; publication: RemoteTrackPublication } | undefined,
  connectedAt: 0,
};

function room(): Room {
  if (!state.room) throw new Error('not connected');
  return state.room;
}

const api = {
  async connect(url: string, token: string, options: { singlePeerConnection?: boolean; dynacast?: boolean } = {}) {
    const created = new Room({ singlePeerConnection: options.singlePeerConnection ?? true, dynacast: options.dynacast ?? false });
    state.room = created;
    for (const event of [RoomEvent.Connected, RoomEvent.Reconnecting, RoomEvent.Reconnected, RoomEvent.Disconnected, RoomEvent.SignalReconnecting]) {
      (created as unknown as { on(name: string, listener: () => void): void }).on(event, () => {
        state.events.push(event);
      });
    }
    created.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, publication: RemoteTrackPublication) => {
      if (track.kind === Track.Kind.Video) {
        const element = track.attach() as HTMLVideoElement;
        element.muted = true;
        document.body.append(element);
        state.video = { element, publication };
        state.events.push('VideoSubscribed');
        return;
      }
      if (track.kind !== Track.Kind.Audio) return;
      // Chrome only pulls remote WebRTC audio that is attached to a media element.
      const element = track.attach();
      element.muted = false;
      document.body.append(element);
      state.audioElements.push(element);
      state.remoteAudio.push(track.mediaStreamTrack);
      state.events.push('TrackSubscribed');
    });
    created.on(RoomEvent.DataReceived, (payload: Uint8Array, participant?: RemoteParticipant, _kind?: unknown, topic?: string) => {
      state.received.push({ kind: 'data', topic, from: participant?.identity, text: new TextDecoder().decode(payload) });
    });
    created.registerTextStreamHandler('chat', (reader, participant) => {
      void reader.readAll().then((text) => {
        state.received.push({ kind: 'text', topic: 'chat', from: participant.identity, text });
      });
    });
    const started = performance.now();
    await created.connect(url, token, { autoSubscribe: true });
    state.connectedAt = performance.now() - started;
    return { connectMs: state.connectedAt, sid: created.localParticipant.sid, state: created.state };
  },
  state(): string {
    return state.room?.state ?? ConnectionState.Disconnected;
  },
  events(): string[] {
    return [...state.events];
  },
  received(): Received[] {
    return [...state.received];
  },
  participants() {
    return [...room().remoteParticipants.values()].map((participant) => ({
      identity: participant.identity,
      kind: participant.kind,
      metadata: participant.metadata ?? '',
      attributes: { ...participant.attributes },
      audioTracks: participant.audioTrackPublications.size,
    }));
  },
  roomMetadata(): string {
    return room().metadata ?? '';
  },
  async publishMicrophone(): Promise<void> {
    await room().localParticipant.setMicrophoneEnabled(true);
  },
  /** Publishes the (fake) camera with livekit-client's defaults (simulcast on, VP8 unless asked); returns the track sid. */
  async publishCamera(videoCodec?: 'vp8' | 'h264'): Promise<string> {
    const publication = await room().localParticipant.setCameraEnabled(true, undefined, videoCodec ? { videoCodec } : undefined);
    return publication?.trackSid ?? '';
  },
  /** Switches the published camera live to the device with this label (livekit-client's `switchActiveDevice`). */
  async switchCamera(label: string): Promise<boolean> {
    const device = (await Room.getLocalDevices('videoinput')).find((candidate) => candidate.label === label);
    return device !== undefined && (await room().switchActiveDevice('videoinput', device.deviceId));
  },
  /** The subscribed video as the page shows it: decoded size, frames decoded so far, and the middle's colour. */
  videoState(): { width: number; height: number; framesDecoded: number; colour: [number, number, number] } | undefined {
    const element = state.video?.element;
    if (!element || element.videoWidth === 0) return undefined;
    const canvas = document.createElement('canvas');
    canvas.width = element.videoWidth;
    canvas.height = element.videoHeight;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(element, 0, 0);
    const pixel = context.getImageData(Math.floor(canvas.width / 2), Math.floor(canvas.height / 2), 1, 1).data;
    const framesDecoded = element.getVideoPlaybackQuality?.().totalVideoFrames ?? 0;
    return { width: element.videoWidth, height: element.videoHeight, framesDecoded, colour: [pixel[0]!, pixel[1]!, pixel[2]!] };
  },
  /** What livekit-client sends as `UpdateTrackSettings`: a quality for the subscribed video, or pausing it. */
  setVideoQuality(quality: 'low' | 'medium' | 'high'): void {
    state.video?.publication.setVideoQuality({ low: VideoQuality.LOW, medium: VideoQuality.MEDIUM, high: VideoQuality.HIGH }[quality]);
  },
  setVideoEnabled(enabled: boolean): void {
    state.video?.publication.setEnabled(enabled);
  },
  /** The local camera's simulcast encodings and whether each is sent (dynacast pauses the ones nobody gets). */
  publishedEncodings(): Array<{ rid: string; active: boolean }> {
    const sender = room().localParticipant.getTrackPublication(Track.Source.Camera)?.track?.sender;
    return (sender?.getParameters().encodings ?? []).map((encoding) => ({ rid: encoding.rid ?? '', active: encoding.active !== false }));
  },
  /** Mutes or unmutes the local camera (livekit-client sends a `mute` request). */
  async setCameraMuted(muted: boolean): Promise<void> {
    await room().localParticipant.setCameraEnabled(!muted);
  },
  /** Whether the subscribed video's publication is muted, as the client was told. */
  remoteVideoMuted(): boolean | undefined {
    return state.video?.publication.isMuted;
  },
  async sendData(text: string, topic: string, destinationIdentities?: string[]): Promise<void> {
    await room().localParticipant.publishData(new TextEncoder().encode(text), {
      reliable: true,
      topic,
      ...(destinationIdentities ? { destinationIdentities } : {}),
    });
  },
  async sendText(text: string, topic: string): Promise<void> {
    await room().localParticipant.sendText(text, { topic });
  },
  registerEcho(): void {
    room().registerRpcMethod('echo', async (data) => `echo:${data.payload}:${data.callerIdentity}`);
  },
  async performRpc(destinationIdentity: string, method: string, payload: string): Promise<string> {
    return room().localParticipant.performRpc({ destinationIdentity, method, payload });
  },
  async setAttributes(attributes: Record<string, string>): Promise<void> {
    await room().localParticipant.setAttributes(attributes);
  },
  /** Strength of a frequency in the subscribed audio (WebAudio analyser), over `durationMs`. */
  measureTone(frequency: number, durationMs: number): Promise<ToneMeasurement> {
    const track = state.remoteAudio.at(-1);
    if (!track) throw new Error('no remote audio track');
    return measureStreamTone(new MediaStream([track]), frequency, durationMs);
  },
  async disconnect(): Promise<void> {
    await state.room?.disconnect();
  },
};

export type PalaverPageApi = typeof api;
(window as unknown as { palaver: PalaverPageApi }).palaver = api;
