import { MediaDeviceFailure } from 'livekit-client';
import { PalaverError } from '../errors/palaver-error.js';

/** Which capture failed. */
export type MediaCapture = 'camera' | 'screen_share';

/** Why the browser refused a capture. */
export type MediaDeviceErrorReason =
  /** The human (or the page's permissions policy) refused: ask again from a user gesture. */
  | 'permission_denied'
  /** No such device (no camera, or the chosen one is gone). */
  | 'not_found'
  /** Another application holds the device. */
  | 'device_in_use'
  /** Anything else the browser reported (`cause` holds it). */
  | 'other';

/**
 * The browser refused a camera or a screen share: typed so an app can tell "permission denied" from "no camera".
 *
 * @example
 * session.on('error', (error) => {
 *   if (MediaDeviceError.isInstance(error) && error.reason === 'permission_denied') askForCameraAccess();
 * });
 */
export class MediaDeviceError extends PalaverError {
  static override readonly marker: symbol = Symbol.for('palaver.error.MediaDeviceError');
  constructor(
    readonly capture: MediaCapture,
    readonly reason: MediaDeviceErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The browser's capture failure (a `DOMException` from getUserMedia/getDisplayMedia) as a {@link MediaDeviceError}. */
export function mediaDeviceError(capture: MediaCapture, error: unknown): MediaDeviceError {
  const what = capture === 'camera' ? 'the camera' : 'the screen share';
  const detail = error instanceof Error ? error.message : String(error);
  switch (MediaDeviceFailure.getFailure(error)) {
    case MediaDeviceFailure.PermissionDenied:
      return new MediaDeviceError(capture, 'permission_denied', `${what} was not allowed: ${detail}`, { cause: error });
    case MediaDeviceFailure.NotFound:
      return new MediaDeviceError(capture, 'not_found', `${what} could not be found: ${detail}`, { cause: error });
    case MediaDeviceFailure.DeviceInUse:
      return new MediaDeviceError(capture, 'device_in_use', `${what} is in use elsewhere: ${detail}`, { cause: error });
    default:
      return new MediaDeviceError(capture, 'other', `${what} could not start: ${detail}`, { cause: error });
  }
}
