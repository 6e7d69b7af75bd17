/**
 * A camera's or a screen share's state in the snapshot. `wanted`: what the app asked for; `enabled`: published and
 * live right now; `pending`: the browser is being asked (a permission prompt, a screen picker) or the track is being
 * published or unpublished; `error`: the last refusal (`MediaDeviceError`), cleared by the next success.
 */
export interface MediaCaptureState {
  readonly wanted: boolean;
  readonly enabled: boolean;
  readonly pending: boolean;
  readonly error: Error | undefined;
}

export function captureState(wanted: boolean, enabled = false, pending = false, error: Error | undefined = undefined): MediaCaptureState {
  return Object.freeze({ wanted, enabled, pending, error });
}

/** The app asked for the capture on or off; `joined`: the request is carried out now (pending). */
export function captureRequested(state: MediaCaptureState, enabled: boolean, joined: boolean): MediaCaptureState {
  if (!joined) return state.wanted === enabled ? state : captureState(enabled, state.enabled, false, state.error);
  return captureState(enabled, state.enabled, true, state.error);
}

/**
 * The capture is now on or off. An outcome nobody asked for (the browser's "Stop sharing" button, a camera unplugged)
 * becomes the wish too.
 */
export function captureChanged(state: MediaCaptureState, enabled: boolean): MediaCaptureState {
  const wanted = state.pending ? state.wanted : enabled;
  if (state.enabled === enabled && !state.pending && state.wanted === wanted && state.error === undefined) return state;
  return captureState(wanted, enabled, false, enabled ? undefined : state.error);
}

/** The browser refused: nothing is published and the wish is dropped (asking again needs a new request). */
export function captureFailed(error: Error): MediaCaptureState {
  return captureState(false, false, false, error);
}

/** The capture as a session leaves it: off, keeping the wish when it carries over to the next connect. */
export function captureEnded(state: MediaCaptureState, keepWish: boolean): MediaCaptureState {
  const wanted = keepWish && state.wanted;
  if (!state.enabled && !state.pending && state.wanted === wanted) return state;
  return captureState(wanted, false, false, state.error);
}

/** The capture as a new connect starts it: off, without the last error (the same object when it is so already). */
export function captureReset(state: MediaCaptureState, wanted: boolean): MediaCaptureState {
  return state.wanted === wanted && !state.enabled && !state.pending && state.error === undefined ? state : captureState(wanted);
}
