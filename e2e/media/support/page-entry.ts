// Bundled with esbuild into the test page: drives the unmodified livekit-client from the tests.
import { ConnectionState, Room, RoomEvent, Track, type RemoteParticipant, type RemoteTrack } from 'livekit-client';

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
  connectedAt: 0,
};

function room(): Room {
  if (!state.room) throw new Error('not connected');
  return state.room;
}

const api = {
  async connect(url: string, token: string, options: { singlePeerConnection?: boolean } = {}) {
    const created = new Room({ singlePeerConnection: options.singlePeerConnection ?? true });
    state.room = created;
    for (const event of [RoomEvent.Connected, RoomEvent.Reconnecting, RoomEvent.Reconnected, RoomEvent.Disconnected, RoomEvent.SignalReconnecting]) {
      (created as unknown as { on(name: string, listener: () => void): void }).on(event, () => {
        state.events.push(event);
      });
    }
    created.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
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
    created.registerTextStreamHandler('chat', async (reader, participant) => {
      const text = await reader.readAll();
      state.received.push({ kind: 'text', topic: 'chat', from: participant.identity, text });
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
  async sendData(text: string, topic: string, destinationIdentities?: string[]): Promise<void> {
    await room().localParticipant.publishData(new TextEncoder().encode(text), { reliable: true, topic, ...(destinationIdentities ? { destinationIdentities } : {}) });
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
  async measureTone(frequency: number, durationMs: number): Promise<{ peakFrequency: number; toneDb: number; floorDb: number }> {
    const track = state.remoteAudio.at(-1);
    if (!track) throw new Error('no remote audio track');
    const context = new AudioContext({ sampleRate: 48_000 });
    await context.resume();
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const analyser = context.createAnalyser();
    analyser.fftSize = 4096;
    analyser.smoothingTimeConstant = 0;
    source.connect(analyser);
    const bins = new Float32Array(analyser.frequencyBinCount);
    const binHz = context.sampleRate / analyser.fftSize;
    const sums = new Float32Array(bins.length);
    let samples = 0;
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      analyser.getFloatFrequencyData(bins);
      for (let index = 0; index < bins.length; index += 1) sums[index]! += Number.isFinite(bins[index]!) ? bins[index]! : -200;
      samples += 1;
    }
    await context.close();
    let peak = 0;
    for (let index = 1; index < sums.length; index += 1) if (sums[index]! > sums[peak]!) peak = index;
    const toneBin = Math.round(frequency / binHz);
    const average = (index: number) => sums[index]! / samples;
    let floor = 0;
    let count = 0;
    for (let index = 5; index < sums.length / 2; index += 1) {
      if (Math.abs(index - toneBin) < 10) continue;
      floor += average(index);
      count += 1;
    }
    return { peakFrequency: peak * binHz, toneDb: average(toneBin), floorDb: floor / count };
  },
  async disconnect(): Promise<void> {
    await state.room?.disconnect();
  },
};

export type PalaverPageApi = typeof api;
(window as unknown as { palaver: PalaverPageApi }).palaver = api;
