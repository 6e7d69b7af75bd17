import { useCallback } from 'react';
import type { MediaCaptureState, RealtimeSession, RealtimeState } from '@palaver/sdk-core/realtime';
import { useSelectedSnapshot } from './use-selected-snapshot.js';

/** What `useScreenShare` reads from: a realtime session (`useVoiceAgent().session`, `useAppRun().session`). */
export type ScreenShareSource = Pick<RealtimeSession, 'subscribe' | 'getSnapshot' | 'setScreenShareEnabled' | 'screenShareStream'>;

export interface ScreenShare extends MediaCaptureState {
  /** The shared screen's video, for a preview; undefined while not sharing. */
  stream: MediaStream | undefined;
  /** Opens the browser's picker (call it from a click handler); rejects with a `MediaDeviceError` when cancelled. */
  start(): Promise<void>;
  stop(): Promise<void>;
  toggle(): Promise<void>;
}

/**
 * The session's screen share (with the tab's or system's audio where the browser offers it). Re-renders only when its
 * slice of the state changes (decision 0097).
 *
 * @example
 * const screen = useScreenShare(agent.session);
 * <button onClick={() => screen.toggle()}>{screen.enabled ? 'Stop sharing' : 'Share screen'}</button>
 */
export function useScreenShare(session: ScreenShareSource): ScreenShare {
  const slice = useSelectedSnapshot<RealtimeState, { screenShare: MediaCaptureState; stream: MediaStream | undefined }>(
    session.subscribe,
    session.getSnapshot,
    (state) => ({ screenShare: state.screenShare, stream: session.screenShareStream() }),
  );
  const start = useCallback(() => session.setScreenShareEnabled(true), [session]);
  const stop = useCallback(() => session.setScreenShareEnabled(false), [session]);
  const toggle = useCallback(() => session.setScreenShareEnabled(!session.getSnapshot().screenShare.wanted), [session]);
  return { ...slice.screenShare, stream: slice.stream, start, stop, toggle };
}
