import { useCallback } from 'react';
import type { MediaCaptureState, RealtimeSession, RealtimeState } from '@palaver/sdk-core/realtime';
import { useDeviceList } from './use-device-list.js';
import { useSelectedSnapshot } from './use-selected-snapshot.js';

/** What `useCamera` reads from: a realtime session (`useVoiceAgent().session`, `useAppRun().session`). */
export type CameraSource = Pick<
  RealtimeSession,
  'subscribe' | 'getSnapshot' | 'setCameraEnabled' | 'localCameraStream' | 'listCameras' | 'switchCamera' | 'cameraDevice'
>;

export interface Camera extends MediaCaptureState {
  /** The published camera for a local preview (`<video muted>`; mirror it with CSS); undefined while off. */
  stream: MediaStream | undefined;
  /** The cameras of this device (labels fill in once the camera was allowed: `refresh()`). */
  cameras: readonly MediaDeviceInfo[];
  /** The chosen camera's id (undefined: the browser's default). */
  device: string | undefined;
  /** Publishes or stops the camera; rejects with a `MediaDeviceError` when the browser refuses (also in `error`). */
  setEnabled(enabled: boolean): Promise<void>;
  /** Turns the camera on when it is off (or being turned off), off otherwise. */
  toggle(): Promise<void>;
  /** Uses this camera, live while it is published. */
  choose(deviceId: string): Promise<void>;
  /** Reads the camera list again. */
  refresh(): Promise<void>;
}

interface CameraSlice {
  camera: MediaCaptureState;
  device: string | undefined;
  stream: MediaStream | undefined;
}

/**
 * The session's camera: its state, a local preview, the device list and the toggles. Re-renders only when the
 * camera's slice of the state changes (decision 0097), not on every transcription.
 *
 * @example
 * const camera = useCamera(agent.session);
 * <button onClick={() => camera.toggle()} disabled={camera.pending}>{camera.enabled ? 'Camera off' : 'Camera on'}</button>
 * <video ref={(video) => { if (video) video.srcObject = camera.stream ?? null; }} autoPlay muted playsInline />
 */
export function useCamera(session: CameraSource): Camera {
  const slice = useSelectedSnapshot<RealtimeState, CameraSlice>(session.subscribe, session.getSnapshot, (state) => ({
    camera: state.camera,
    device: state.cameraDevice,
    stream: session.localCameraStream(),
  }));
  const load = useCallback(() => session.listCameras(), [session]);
  const { devices, refresh } = useDeviceList(load);
  const setEnabled = useCallback((enabled: boolean) => session.setCameraEnabled(enabled), [session]);
  const toggle = useCallback(() => session.setCameraEnabled(!session.getSnapshot().camera.wanted), [session]);
  const choose = useCallback((deviceId: string) => session.switchCamera(deviceId), [session]);
  return { ...slice.camera, stream: slice.stream, cameras: devices, device: slice.device, setEnabled, toggle, choose, refresh };
}
