// Bundled with esbuild into the test page: drives the app run connector (@palaver/sdk-core/realtime's AppRun,
// from source, with its livekit-client) from the tests.
import { createAppRun, MediaDeviceError, type AppRun, type AppRunConnectOptions, type AppRunState } from '@palaver/sdk-core/realtime';
import { watchVideo, type VideoReading } from './video-reading.js';
import { measureAgentTone } from '../../support/page-audio.js';

const recorded = {
  statuses: [] as string[],
  values: [] as Array<{ node: string; pad: string; value: unknown }>,
  logs: [] as Array<{ level: string; node: string | null; message: string }>,
  errors: [] as Array<{ name: string; message: string }>,
  ended: [] as string[],
  /** The camera, screen share and agent video events, in order. */
  media: [] as string[],
  /** Calls of the `client_app` tool `show_banner` this page answered. */
  toolCalls: [] as Array<{ id: string; args: Record<string, unknown> }>,
};
let current: AppRun | undefined;
const subscriptions = new Map<string, () => void>();

function run(): AppRun {
  if (!current) throw new Error('no run');
  return current;
}

const describeError = (error: Error) => ({ name: error.name, message: error.message });
const mediaError = (error: Error) => ({ ...describeError(error), reason: MediaDeviceError.isInstance(error) ? error.reason : null });

function plain(state: AppRunState) {
  return {
    status: state.status,
    connectionState: state.connectionState,
    runId: state.runId ?? null,
    values: JSON.parse(JSON.stringify(state.values)) as Record<string, unknown>,
    logs: state.logs.length,
    microphone: { ...state.session.microphone },
    agentAudio: state.session.agentAudio,
    camera: { ...state.session.camera, error: state.session.camera.error ? mediaError(state.session.camera.error) : null },
    cameraDevice: state.session.cameraDevice ?? null,
    screenShare: { ...state.session.screenShare, error: state.session.screenShare.error ? mediaError(state.session.screenShare.error) : null },
    agentVideo: state.session.agentVideo,
    error: state.error ? describeError(state.error) : null,
    ended: state.ended?.reason ?? null,
  };
}

/** Settles a promise as plain JSON: `{ok, value}` or `{ok: false, error}`. */
async function settle<T>(promise: Promise<T>) {
  try {
    return { ok: true as const, value: JSON.parse(JSON.stringify((await promise) ?? null)) as unknown };
  } catch (error) {
    return { ok: false as const, error: describeError(error as Error) };
  }
}

const api = {
  async connect(baseUrl: string, connectOptions: AppRunConnectOptions, options: { publishNode?: string; microphone?: boolean; camera?: boolean } = {}) {
    const created = createAppRun({
      baseUrl,
      microphone: options.microphone ?? true,
      camera: options.camera ?? false,
      ...(options.publishNode ? { publishNode: options.publishNode } : {}),
    });
    current = created;
    created.on('statusChanged', (status) => recorded.statuses.push(status));
    created.on('value', (node, pad, value) => recorded.values.push({ node, pad, value }));
    created.on('logs', (items) => recorded.logs.push(...items.map((item) => ({ level: item.level, node: item.node ?? null, message: item.message }))));
    created.on('error', (error) => recorded.errors.push(describeError(error)));
    created.on('ended', (end) => recorded.ended.push(end.reason));
    created.session.on('cameraChanged', (enabled) => recorded.media.push(`camera ${enabled ? 'on' : 'off'}`));
    created.session.on('screenShareChanged', (enabled) => recorded.media.push(`screen ${enabled ? 'on' : 'off'}`));
    created.session.on('agentVideoChanged', (available) => recorded.media.push(`agent video ${available ? 'on' : 'off'}`));
    created.onToolCall('show_banner', (args, { call }) => {
      recorded.toolCalls.push({ id: call.id, args });
      return { shown: true, banner: 'Welcome aboard' };
    });
    const connected = await settle(created.connect(connectOptions));
    return { ...connected, snapshot: plain(created.getSnapshot()) };
  },
  snapshot: () => plain(run().getSnapshot()),
  recorded: () => JSON.parse(JSON.stringify(recorded)) as typeof recorded,
  subscribe(node: string, pad: string) {
    subscriptions.set(`${node}.${pad}`, run().subscribePad(node, pad));
  },
  unsubscribe(node: string, pad: string) {
    subscriptions.get(`${node}.${pad}`)?.();
    subscriptions.delete(`${node}.${pad}`);
  },
  push: (node: string, pad: string, value?: unknown) => settle(run().pushValue(node, pad, value)),
  get: (node: string, pad: string) => settle(run().getValue(node, pad)),
  list: (node: string, pad: string) => settle(run().getListItems(node, pad)),
  measureAgentTone,
  /** The connector's level meter of what the run plays (max over `durationMs`). */
  async agentLevel(durationMs: number): Promise<number> {
    let max = 0;
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      max = Math.max(max, run().getAudioLevels().agent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return max;
  },
  camera: (enabled: boolean) => settle(run().setCameraEnabled(enabled)),
  cameras: async () => (await run().session.listCameras()).map((device) => ({ id: device.deviceId, label: device.label })),
  switchCamera: (deviceId: string) => settle(run().session.switchCamera(deviceId)),
  /** The published camera track's device, as the browser reports it. */
  cameraTrackDevice: () => run().session.localCameraStream()?.getVideoTracks()[0]?.getSettings().deviceId ?? null,
  stopScreenShare: () => settle(run().stopScreenShare()),
  /** A button whose click starts the screen share: getDisplayMedia needs the user's gesture (the test clicks it). */
  offerScreenShare() {
    const button = document.createElement('button');
    button.id = 'share';
    button.textContent = 'Share screen';
    button.onclick = () => void settle(run().startScreenShare()).then((result) => (button.dataset.result = JSON.stringify(result)));
    document.body.append(button);
  },
  /** Plays a stream of the connector in a `<video>` and reads what it shows (size, frames, average colour). */
  watch: (which: 'agent' | 'camera' | 'screen', durationMs: number): Promise<VideoReading | null> => {
    const session = run().session;
    const stream = which === 'agent' ? session.agentVideoStream() : which === 'camera' ? session.localCameraStream() : session.screenShareStream();
    return stream ? watchVideo(stream, durationMs) : Promise.resolve(null);
  },
  async disconnect() {
    await run().disconnect();
    return plain(run().getSnapshot());
  },
};

export type AppRunPageApi = typeof api;
(window as unknown as { appRun: AppRunPageApi }).appRun = api;
