import { EventEmitter } from 'eventemitter3';
import { ConnectionState, Room, type RoomOptions } from 'livekit-client';
import type { RealtimeSessions } from '../client/resources/realtime.js';
import type { SDKConnectOptions, SDKSendChatMessageParams } from '../contract/sdk.js';
import { AbortError, ConnectionError } from '../errors/transport-errors.js';
import { createAudioLevelMeter, type AudioLevelMeter, type AudioSource } from './audio-levels.js';
import { CHAT_INPUT_TOPIC, PLATFORM_OBSERVER_IDENTITY, TOOL_CALL_TOPIC, TRANSCRIPT_RESUME_TOPIC } from '../contract/wire.js';
import { ClientToolRunner, type ClientToolHandler } from './client-tools.js';
import type { LiveKitRoomLink } from './livekit-room-link.js';
import type { RealtimeEffect, RealtimeInput } from './session-actions.js';
import type { RealtimeSessionEvents } from './session-events.js';
import { DEFAULT_REDUCER_SETTINGS, reduceRealtime, type RealtimeReducerSettings } from './session-reducer.js';
import { initialRealtimeState, type RealtimeState } from './session-state.js';
import { TurnLatencyTracker } from './turn-latency.js';
import type * as SessionIo from './session-io.js';

/** The connector's REST client, schemas and room link, loaded apart from the up-front bundle (issue 30). */
export const loadSessionIo = (): Promise<typeof SessionIo> => import('./session-io.js');

export interface RealtimeSessionOptions {
  /** The platform's base URL, for starting sessions with `{ token, config }` (default: the page's origin). */
  baseUrl?: string;
  /** Custom fetch for the REST call that starts the session. */
  fetch?: (input: Request) => Promise<Response>;
  /** Publish the microphone once joined (default true); false starts text only (`setMicrophoneEnabled(true)` later). */
  microphone?: boolean;
  /** Publish the camera once joined (default false; `setCameraEnabled(true)` later). */
  camera?: boolean;
  /**
   * Run the microphone through a noise suppressor in the browser (RNNoise as WebAssembly, shipped in the package and
   * loaded when the microphone is first published; decision 0116), so the agent hears the voice and less of the room:
   * in pink noise at 10 dB SNR the offline STT recognised about twice the words, in clean speech as many. Switch it
   * live with `setNoiseSuppression`. Default true; false never loads it.
   */
  noiseSuppression?: boolean;
  /** Start with the agent's speech silenced here (default false); its text answers still arrive. */
  agentSpeechMuted?: boolean;
  /** Seconds left at which the `remainingSecondsWarning` event fires and the snapshot's flag turns on (default 60; 0: never). */
  remainingSecondsWarningAt?: number;
  /** Give up when no agent is in the room this long after joining (default 20 000 ms; 0 waits forever). */
  agentTimeoutMs?: number;
  /** Where the agent's audio plays (default: a hidden `<audio>` appended to the document). */
  audioElement?: HTMLAudioElement;
  /** Passed to livekit-client's `Room`. */
  roomOptions?: RoomOptions;
  /** Handlers of the session's `client_app` tools, by tool name (more with `onToolCall`). */
  tools?: Record<string, ClientToolHandler>;
  /** Name of the published microphone track (default: LiveKit's); an app run's Publish node takes `<node id>:audio`. */
  microphoneTrackName?: string;
  /** Name of the published camera track (default: LiveKit's); an app run's Publish node takes `<node id>:video`. */
  cameraTrackName?: string;
  /**
   * After a resume, ask the agent for the transcript lines the drop may have lost (`transcript_resume`; default
   * true). False keeps only what LiveKit delivered: for comparison (`pnpm bench reconnect`).
   */
  resumeTranscripts?: boolean;
}

export type { AudioSource };

/** Audio devices: microphones (`audioinput`) and speakers (`audiooutput`). */
export type AudioDeviceKind = 'audioinput' | 'audiooutput';

/** The same `MediaStream` while its track stays (React's useSyncExternalStore compares by identity). */
function streamOf(track: MediaStreamTrack | undefined, last: MediaStream | undefined): MediaStream | undefined {
  if (!track) return undefined;
  return last?.getTracks()[0] === track ? last : new MediaStream([track]);
}

const DEFAULT_AGENT_TIMEOUT_MS = 20_000;

/** Reports a listener's exception without letting it break the state machine. */
function reportLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

interface PendingConnect {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * A voice session with a Palaver agent in the browser: joins the session's LiveKit room, follows the agent's
 * state, collects transcriptions, sends typed turns, publishes the microphone and plays the agent.
 * Framework-free: read it with `subscribe`/`getSnapshot` (immutable snapshots; React's
 * `useSyncExternalStore`) or its typed events.
 *
 * @example
 * const session = createRealtimeSession({ baseUrl: 'https://api.example.com' });
 * session.subscribe(() => render(session.getSnapshot()));
 * await session.connect({ token: usageToken, config });          // starts a session, then joins it
 * // or: await session.connect({ connection_details: { url, token } });
 * await session.sendChatMessage({ text: 'Hello!' });
 * await session.disconnect();
 */
export class RealtimeSession extends EventEmitter<RealtimeSessionEvents> {
  private state: RealtimeState;
  private readonly stateListeners = new Set<() => void>();
  private readonly queue: RealtimeInput[] = [];
  private dispatching = false;
  private link: LiveKitRoomLink | undefined;
  private starting: AbortController | undefined;
  private agentWait: ReturnType<typeof setTimeout> | undefined;
  private leaving: Promise<void> = Promise.resolve();
  private readonly pendingConnects = new Map<number, PendingConnect>();
  private microphoneOperation: Promise<void> | undefined;
  private suppressionOperation: Promise<void> | undefined;
  private cameraOperation: Promise<void> | undefined;
  private screenShareOperation: Promise<void> | undefined;
  private readonly streams: Partial<Record<'agentVideo' | 'camera' | 'screenShare', MediaStream>> = {};
  private readonly meters = new Map<string, { track: unknown; meter: AudioLevelMeter }>();
  private readonly clientTools: ClientToolRunner;
  private readonly latency: TurnLatencyTracker;
  private readonly chosenDevices: Partial<Record<AudioDeviceKind | 'videoinput', string>> = {};
  private readonly settings: RealtimeReducerSettings;
  /** Set once `session-io` loaded (it starts loading with the session, so it is there by the time the app connects). */
  private io: typeof SessionIo | undefined;
  private readonly ioLoaded: Promise<typeof SessionIo>;

  constructor(private readonly options: RealtimeSessionOptions = {}) {
    super();
    this.ioLoaded = loadSessionIo().then((io) => (this.io = io));
    this.ioLoaded.catch(() => {});
    this.state = initialRealtimeState({
      microphone: options.microphone ?? true,
      camera: options.camera ?? false,
      agentSpeechMuted: options.agentSpeechMuted ?? false,
      noiseSuppression: options.noiseSuppression ?? true,
    });
    const warningAt = options.remainingSecondsWarningAt;
    if (warningAt !== undefined && !(Number.isFinite(warningAt) && warningAt >= 0))
      throw new TypeError('remainingSecondsWarningAt must be a number of seconds >= 0');
    this.settings = warningAt === undefined ? DEFAULT_REDUCER_SETTINGS : { remainingSecondsWarningAt: warningAt };
    this.clientTools = new ClientToolRunner(
      async (message, agentIdentity) => {
        const link = this.link;
        if (link) await link.publish(TOOL_CALL_TOPIC, JSON.stringify(message), [agentIdentity]);
      },
      (callId) => this.dispatch({ type: 'tool_call_settled', attempt: this.state.attempt, callId }),
    );
    for (const [name, handler] of Object.entries(options.tools ?? {})) this.clientTools.register(name, handler);
    this.latency = new TurnLatencyTracker(
      () => ({ agent: this.meter('agent', 'timing')?.volume() ?? 0, microphone: this.meter('microphone', 'timing')?.volume() ?? 0 }),
      (latencyMs) => this.dispatch({ type: 'turn_latency_measured', attempt: this.state.attempt, latencyMs }),
    );
  }

  /**
   * Handles the agent's calls of the `client_app` tool `name`: the call is acknowledged at once, then the
   * handler's value is sent as the result (a thrown error's message as the error). Its signal aborts when
   * the agent cancels the call. Returns the unregister function.
   *
   * @example
   * session.onToolCall('get_location', async ({ precise }, { signal }) => ({ city: 'Paris' }));
   */
  onToolCall(name: string, handler: ClientToolHandler): () => void {
    return this.clientTools.register(name, handler);
  }

  /** Calls `listener` after every state change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** The current state: a frozen object, replaced on every change (same object while nothing changed). */
  readonly getSnapshot = (): RealtimeState => this.state;
  private agentStream: MediaStream | undefined;

  /**
   * Joins with ready connection details, or starts a session (`POST /v1/realtime/start` with the usage
   * token) and joins it. Resolves once in the room (the agent may still be on its way); rejects with the
   * failure, which the snapshot and the `error`/`ended` events also carry.
   */
  connect(options: SDKConnectOptions): Promise<void> {
    return this.io ? this.connectWith(this.io, options) : this.ioLoaded.then((io) => this.connectWith(io, options));
  }

  private connectWith(io: typeof SessionIo, options: SDKConnectOptions): Promise<void> {
    const parsed = io.checkConnectOptions(options);
    if (!parsed) return Promise.reject(new TypeError('connect needs { connection_details: { url, token } } or { token, config }'));
    if (this.state.status !== 'not_connected') return Promise.reject(new Error(`cannot connect while ${this.state.status}; call disconnect() first`));
    const attempt = this.state.attempt + 1;
    const joined = new Promise<void>((resolve, reject) => this.pendingConnects.set(attempt, { resolve, reject }));
    this.dispatch({ type: 'connect_requested', options: parsed });
    return joined;
  }

  /** Leaves the room (the state becomes `not_connected` at once); resolves once LiveKit disconnected. */
  disconnect(): Promise<void> {
    this.dispatch({ type: 'disconnect_requested' });
    return this.leaving;
  }

  /** Sends a typed user turn to the agent (`chat_input`, reliable). The agent must be in the room. */
  async sendChatMessage(params: SDKSendChatMessageParams): Promise<void> {
    const io = this.io ?? (await this.ioLoaded);
    const parsed = io.checkChatMessageParams(params);
    if (!parsed) throw new TypeError('sendChatMessage needs { text } with 1 to 10 000 characters');
    await this.sendToAgent(CHAT_INPUT_TOPIC, JSON.stringify(parsed), 'a chat message');
  }

  /**
   * Sends a reliable data packet on `topic` to the agent (an app run's `runtime_api` requests). The agent
   * must be in the room.
   *
   * @example
   * await session.sendData('runtime_api', JSON.stringify({ type: 'request', req_id: '1', payload }));
   */
  sendData(topic: string, text: string): Promise<void> {
    return this.sendToAgent(topic, text, 'data');
  }

  /** Publishes to the connected agent; `what` names it in the error when there is no agent to send to. */
  private async sendToAgent(topic: string, text: string, what: string): Promise<void> {
    const state = this.state;
    if (state.status !== 'connected' || !this.link) {
      throw new ConnectionError(state.status === 'not_connected' ? 'closed' : 'agent_unavailable', `cannot send ${what} while ${state.status}`);
    }
    await this.link.publish(topic, text, [state.agentIdentity]);
  }

  /**
   * Publishes and unmutes (true) or mutes (false) the microphone. Before joining it only records the wish,
   * applied on join. Rejects when the browser refuses the microphone (also reported as an `error`).
   */
  setMicrophoneEnabled(enabled: boolean): Promise<void> {
    this.microphoneOperation = undefined;
    this.dispatch({ type: 'microphone_requested', enabled });
    const operation = this.microphoneOperation ?? Promise.resolve();
    this.microphoneOperation = undefined;
    return operation;
  }

  /**
   * Silences (true) or plays again (false) the agent's speech in this page, at once and for later connects. The
   * agent keeps answering: its transcriptions, states and data still arrive (text and voice in one session).
   *
   * @example
   * session.setAgentSpeechMuted(true); // read the answers instead of hearing them
   */
  setAgentSpeechMuted(muted: boolean): void {
    this.dispatch({ type: 'agent_speech_mute_requested', muted });
  }

  /**
   * Turns noise suppression of the microphone on or off, at once when a microphone is published and for every later
   * one. The first time on loads the suppressor (its own chunk). Rejects when it cannot run here (also reported as an
   * `error`); `noiseSuppression.active` in the state says whether it runs.
   *
   * @example
   * await session.setNoiseSuppression(true); // the agent hears the voice, less of the room
   */
  setNoiseSuppression(enabled: boolean): Promise<void> {
    this.suppressionOperation = undefined;
    this.dispatch({ type: 'noise_suppression_requested', enabled });
    const operation = this.suppressionOperation ?? Promise.resolve();
    this.suppressionOperation = undefined;
    return operation;
  }

  /** Unblocks audio playback where the browser requires a user gesture: call it from a click handler. */
  async startAudio(): Promise<void> {
    const link = this.link;
    if (!link) return;
    const canPlay = await link.startAudio();
    this.dispatch({ type: 'audio_playback_changed', attempt: this.state.attempt, canPlay });
  }

  /** Current volume (0..1) of the agent's audio and of the microphone; 0 when there is none. Cheap: call per frame. */
  getAudioLevels(): Record<AudioSource, number> {
    return { agent: this.meter('agent')?.volume() ?? 0, microphone: this.meter('microphone')?.volume() ?? 0 };
  }

  /** `count` frequency bands (0..1 each) of one side's audio, for visualizers; zeros when there is none. */
  getFrequencyBands(source: AudioSource, count = 5): number[] {
    return this.meter(source)?.bands(count) ?? new Array<number>(count).fill(0);
  }

  /**
   * The agent's audio as a `MediaStream` (its subscribed track), for recording (`MediaRecorder`) or visualising
   * (Web Audio); undefined while no agent audio is subscribed (`agentAudio` in the state). A resume or a new agent
   * may bring a new track: read it again when `agentAudio` turns true.
   *
   * @example
   * const stream = session.agentAudioStream();
   * if (stream) new MediaRecorder(stream).start();
   */
  agentAudioStream(): MediaStream | undefined {
    const track = this.link?.agentAudioTrack?.mediaStreamTrack;
    if (!track) return undefined;
    // The same stream while the track stays (React's useSyncExternalStore compares by identity).
    if (this.agentStream?.getAudioTracks()[0] !== track) this.agentStream = new MediaStream([track]);
    return this.agentStream;
  }

  /**
   * The microphones or speakers of this device (labels are empty until the page may use the microphone).
   *
   * @example
   * const microphones = await session.listAudioDevices('audioinput');
   */
  async listAudioDevices(kind: AudioDeviceKind): Promise<MediaDeviceInfo[]> {
    if (typeof navigator === 'undefined' || !navigator.mediaDevices) return [];
    return Room.getLocalDevices(kind, false);
  }

  /** The device chosen with `switchAudioDevice` (undefined: the browser's default). */
  audioDevice(kind: AudioDeviceKind): string | undefined {
    return this.chosenDevices[kind];
  }

  /**
   * Uses this microphone or speaker: at once when connected (the published track is switched, the agent keeps
   * hearing), and for every later connect. Rejects when the browser refuses the device.
   */
  async switchAudioDevice(kind: AudioDeviceKind, deviceId: string): Promise<void> {
    const room = this.link?.room;
    if (room && room.state !== ConnectionState.Disconnected && !(await room.switchActiveDevice(kind, deviceId))) {
      throw new Error(`the ${kind === 'audioinput' ? 'microphone' : 'speaker'} '${deviceId}' could not be used`);
    }
    this.chosenDevices[kind] = deviceId;
  }

  /**
   * Publishes (true) or stops (false) the camera; for an app run its track is named `<publish node>:video`. Before
   * joining it only records the wish, applied on join. Rejects with a `MediaDeviceError` when the browser refuses
   * (`permission_denied`, `not_found`, `device_in_use`), also in `camera.error` and the `error` event.
   *
   * @example
   * await session.setCameraEnabled(true);
   * preview.srcObject = session.localCameraStream() ?? null;
   */
  setCameraEnabled(enabled: boolean): Promise<void> {
    this.cameraOperation = undefined;
    this.dispatch({ type: 'camera_requested', enabled });
    const operation = this.cameraOperation ?? Promise.resolve();
    this.cameraOperation = undefined;
    return operation;
  }

  /** `setCameraEnabled(true)`. */
  enableCamera(): Promise<void> {
    return this.setCameraEnabled(true);
  }

  /** `setCameraEnabled(false)`. */
  disableCamera(): Promise<void> {
    return this.setCameraEnabled(false);
  }

  /**
   * Shares a screen, window or tab (the browser's picker: call it from a click handler), with its audio where the
   * browser offers it. Only while joined. Rejects with a `MediaDeviceError` when the human cancels the picker
   * (`permission_denied`) or the browser cannot capture. The browser's own "Stop sharing" button ends it too
   * (`screenShare.enabled` turns false).
   */
  startScreenShare(): Promise<void> {
    return this.setScreenShareEnabled(true);
  }

  /** Stops sharing the screen. */
  stopScreenShare(): Promise<void> {
    return this.setScreenShareEnabled(false);
  }

  /** Starts (true) or stops (false) sharing the screen: `startScreenShare`/`stopScreenShare`. */
  setScreenShareEnabled(enabled: boolean): Promise<void> {
    const state = this.state;
    if (state.status === 'not_connected' || state.status === 'connecting') {
      return enabled ? Promise.reject(new ConnectionError('closed', `cannot share the screen while ${state.status}`)) : Promise.resolve();
    }
    this.screenShareOperation = undefined;
    this.dispatch({ type: 'screen_share_requested', enabled });
    const operation = this.screenShareOperation ?? Promise.resolve();
    this.screenShareOperation = undefined;
    return operation;
  }

  /**
   * The agent's video (an app run's Output `video` track) as a `MediaStream` for a `<video>`; undefined while the
   * agent publishes none (`agentVideo` in the state). The same stream while the track stays.
   *
   * @example
   * video.srcObject = session.agentVideoStream() ?? null;
   */
  agentVideoStream(): MediaStream | undefined {
    this.streams.agentVideo = streamOf(this.link?.agentVideoTrack?.mediaStreamTrack, this.streams.agentVideo);
    return this.streams.agentVideo;
  }

  /** The human's own camera as published, for a local preview (mirror it with CSS); undefined while the camera is off. */
  localCameraStream(): MediaStream | undefined {
    const track = this.state.camera.enabled ? this.link?.cameraTrack : undefined;
    this.streams.camera = streamOf(track?.isMuted ? undefined : track?.mediaStreamTrack, this.streams.camera);
    return this.streams.camera;
  }

  /** The shared screen as published (its video), for a preview; undefined while not sharing. */
  screenShareStream(): MediaStream | undefined {
    const track = this.state.screenShare.enabled ? this.link?.screenShareTrack : undefined;
    this.streams.screenShare = streamOf(track?.mediaStreamTrack, this.streams.screenShare);
    return this.streams.screenShare;
  }

  /**
   * The cameras of this device (labels are empty until the page may use the camera).
   *
   * @example
   * const cameras = await session.listCameras();
   */
  async listCameras(): Promise<MediaDeviceInfo[]> {
    if (typeof navigator === 'undefined' || !navigator.mediaDevices) return [];
    return Room.getLocalDevices('videoinput', false);
  }

  /** The camera chosen with `switchCamera` (undefined: the browser's default). */
  cameraDevice(): string | undefined {
    return this.state.cameraDevice;
  }

  /**
   * Uses this camera: at once when connected (the published track is switched, the agent keeps seeing), and for
   * every later publication. Rejects when the browser refuses the device.
   */
  async switchCamera(deviceId: string): Promise<void> {
    const room = this.link?.room;
    if (room && room.state !== ConnectionState.Disconnected && !(await room.switchActiveDevice('videoinput', deviceId))) {
      throw new Error(`the camera '${deviceId}' could not be used`);
    }
    this.chosenDevices.videoinput = deviceId;
    // In the state too: a preview reads the new track (`localCameraStream()`).
    this.dispatch({ type: 'camera_device_changed', deviceId });
  }

  /** Disconnects and drops every listener. */
  async dispose(): Promise<void> {
    await this.disconnect();
    this.stateListeners.clear();
    this.removeAllListeners();
  }

  /** A level meter of one side: smoothed for display, unsmoothed for timing turn latencies. */
  private meter(source: AudioSource, use: 'display' | 'timing' = 'display'): AudioLevelMeter | undefined {
    const track = source === 'agent' ? this.link?.agentAudioTrack : this.link?.microphoneTrack;
    const key = `${source}:${use}`;
    const existing = this.meters.get(key);
    if (existing && existing.track === track) return existing.meter;
    existing?.meter.close();
    this.meters.delete(key);
    if (!track || typeof AudioContext === 'undefined') return undefined;
    const meter = createAudioLevelMeter(track, use === 'timing' ? { smoothing: 0 } : {});
    this.meters.set(key, { track, meter });
    return meter;
  }

  private dispatch(input: RealtimeInput): void {
    this.queue.push(input);
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        const { state, effects } = reduceRealtime(this.state, next, this.settings);
        if (state !== this.state) {
          this.state = state;
          for (const listener of [...this.stateListeners]) {
            try {
              listener();
            } catch (error) {
              reportLater(error);
            }
          }
          this.settleConnects();
          // Turn latency is measured while connected, where the browser has audio meters.
          if (state.status === 'connected' && typeof AudioContext !== 'undefined') this.latency.start();
          else if (state.status !== 'connected') this.latency.stop();
        }
        for (const effect of effects) this.run(effect);
      }
    } finally {
      this.dispatching = false;
    }
  }

  private settleConnects(): void {
    const state = this.state;
    for (const [attempt, pending] of this.pendingConnects) {
      if (attempt === state.attempt && state.status === 'connecting') continue;
      this.pendingConnects.delete(attempt);
      if (attempt === state.attempt && state.status !== 'not_connected') pending.resolve();
      else if (state.status === 'not_connected' && state.ended?.reason === 'client')
        pending.reject(new AbortError('disconnect() was called before the room was joined'));
      else
        pending.reject(
          state.status === 'not_connected' && state.ended?.error ? state.ended.error : new ConnectionError('closed', 'the connection attempt ended'),
        );
    }
  }

  private run(effect: RealtimeEffect): void {
    switch (effect.type) {
      case 'emit': {
        try {
          (this.emit as (name: string, ...args: unknown[]) => boolean)(effect.notification.name, ...effect.notification.args);
        } catch (error) {
          reportLater(error);
        }
        return;
      }
      case 'start_session':
        return this.startSession(effect.attempt, effect.token, effect.config);
      case 'join_room':
        return this.joinRoom(effect.attempt, effect.url, effect.token);
      case 'leave_room':
        return this.leaveRoom();
      case 'set_microphone': {
        const link = this.link;
        if (!link) return;
        const attempt = effect.attempt;
        this.microphoneOperation = link.setMicrophone(effect.enabled).then(
          (enabled) => this.dispatch({ type: 'microphone_changed', attempt, enabled }),
          (error: unknown) => {
            const failure = error instanceof Error ? error : new Error(String(error));
            this.dispatch({ type: 'microphone_failed', attempt, error: failure });
            throw failure;
          },
        );
        // Applied on join without a caller to report to: the failure is in the state and the `error` event.
        this.microphoneOperation.catch(() => {});
        return;
      }
      case 'set_camera':
      case 'set_screen_share': {
        const link = this.link;
        if (!link) return;
        const { attempt, enabled } = effect;
        const camera = effect.type === 'set_camera';
        const operation = (camera ? link.setCamera(enabled) : link.setScreenShare(enabled)).then(
          (now) => this.dispatch({ type: camera ? 'camera_changed' : 'screen_share_changed', attempt, enabled: now }),
          (error: unknown) => {
            const failure = error instanceof Error ? error : new Error(String(error));
            this.dispatch({ type: camera ? 'camera_failed' : 'screen_share_failed', attempt, error: failure });
            throw failure;
          },
        );
        // Applied on join without a caller to report to: the failure is in the state and the `error` event.
        operation.catch(() => {});
        if (camera) this.cameraOperation = operation;
        else this.screenShareOperation = operation;
        return;
      }
      case 'set_noise_suppression': {
        // The link reports the outcome (noise_suppression_changed / _failed); the caller gets the failure too.
        this.suppressionOperation = this.link?.setNoiseSuppression(effect.enabled).then(() => undefined);
        this.suppressionOperation?.catch(() => {});
        return;
      }
      case 'set_agent_speech_muted':
        this.link?.setAgentSpeechMuted(effect.muted);
        return;
      case 'schedule_agent_wait': {
        clearTimeout(this.agentWait);
        const timeout = this.options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS;
        if (timeout > 0) this.agentWait = setTimeout(() => this.dispatch({ type: 'agent_wait_expired', attempt: effect.attempt }), timeout);
        return;
      }
      case 'cancel_agent_wait':
        clearTimeout(this.agentWait);
        this.agentWait = undefined;
        return;
      case 'run_tool_call':
        void this.clientTools.start(effect.request, effect.agentIdentity);
        return;
      case 'cancel_tool_call':
        this.clientTools.cancel(effect.callId);
        return;
      case 'request_transcript_replay': {
        if (this.options.resumeTranscripts === false) return;
        // The agent, and the platform's observer of a worker-run session (decision 0123); an identity not in the room gets nothing.
        const to = [effect.agentIdentity, PLATFORM_OBSERVER_IDENTITY];
        this.link?.publish(TRANSCRIPT_RESUME_TOPIC, JSON.stringify({ after: effect.after }), to).catch(() => {});
        return;
      }
    }
  }

  private startSession(attempt: number, token: string, config: Parameters<RealtimeSessions['start']>[0]['config']): void {
    const controller = new AbortController();
    this.starting = controller;
    const io = this.loadedIo();
    const http = new io.HttpClient({
      usageToken: token,
      maxRetries: 0,
      ...(this.options.baseUrl !== undefined ? { baseUrl: this.options.baseUrl } : {}),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
    new io.RealtimeSessions(http).start({ config }, { signal: controller.signal }).then(
      (started) =>
        this.dispatch({
          type: 'session_started',
          attempt,
          sessionId: started.session.id,
          url: started.connection_details.url,
          token: started.connection_details.token,
        }),
      (error: unknown) => this.dispatch({ type: 'connect_failed', attempt, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  }

  /** The app's room options with the chosen devices. */
  private roomOptions(): RoomOptions {
    const options = this.options.roomOptions ?? {};
    const microphone = this.chosenDevices.audioinput;
    const speaker = this.chosenDevices.audiooutput;
    const camera = this.chosenDevices.videoinput;
    return {
      ...options,
      ...(camera ? { videoCaptureDefaults: { ...options.videoCaptureDefaults, deviceId: camera } } : {}),
      ...(microphone ? { audioCaptureDefaults: { ...options.audioCaptureDefaults, deviceId: microphone } } : {}),
      ...(speaker ? { audioOutput: { ...options.audioOutput, deviceId: speaker } } : {}),
    };
  }

  /** The effects that need `session-io` run after `connect` waited for it. */
  private loadedIo(): typeof SessionIo {
    if (!this.io) throw new Error('the connector has not loaded its session module yet');
    return this.io;
  }

  private joinRoom(attempt: number, url: string, token: string): void {
    const { LiveKitRoomLink, joinError } = this.loadedIo();
    const link = new LiveKitRoomLink({
      attempt,
      dispatch: (input) => this.dispatch(input),
      roomOptions: this.roomOptions(),
      agentSpeechMuted: this.state.agentSpeechMuted,
      ...(this.options.audioElement ? { audioElement: this.options.audioElement } : {}),
      ...(this.options.microphoneTrackName ? { microphoneTrackName: this.options.microphoneTrackName } : {}),
      ...(this.options.cameraTrackName ? { cameraTrackName: this.options.cameraTrackName } : {}),
      microphoneWhileConnecting: this.state.microphone.wanted,
      noiseSuppression: this.state.noiseSuppression.wanted,
    });
    this.link = link;
    link.join(url, token).catch((error: unknown) => this.dispatch({ type: 'connect_failed', attempt, error: joinError(error) }));
  }

  private leaveRoom(): void {
    this.latency.stop();
    this.clientTools.cancelAll();
    this.starting?.abort();
    this.starting = undefined;
    for (const { meter } of this.meters.values()) meter.close();
    this.meters.clear();
    const link = this.link;
    this.link = undefined;
    if (link) this.leaving = link.leave().catch(() => {});
  }
}

/**
 * Creates a {@link RealtimeSession}.
 *
 * @example
 * const session = createRealtimeSession({ baseUrl: 'https://api.example.com' });
 * await session.connect({ connection_details });
 */
export function createRealtimeSession(options: RealtimeSessionOptions = {}): RealtimeSession {
  return new RealtimeSession(options);
}
