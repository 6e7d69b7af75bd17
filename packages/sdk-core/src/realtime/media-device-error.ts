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

const REASONS: Partial<Record<MediaDeviceFailure, MediaDeviceErrorReason>> = {
  [MediaDeviceFailure.PermissionDenied]: 'permission_denied',
  [MediaDeviceFailure.NotFound]: 'not_found',
  [MediaDeviceFailure.DeviceInUse]: 'device_in_use',
};

/** The browser's capture failure (a `DOMException` from getUserMedia/getDisplayMedia) as a {@link MediaDeviceError}. */
export function mediaDeviceError(capture: MediaCapture, error: unknown): MediaDeviceError {
  const failure = MediaDeviceFailure.getFailure(error);
  const reason = (failure && REASONS[failure]) ?? 'other';
  const detail = error instanceof Error ? error.message : String(error);
  return new MediaDeviceError(capture, reason, `${capture === 'camera' ? 'the camera' : 'the screen share'} failed (${reason}): ${detail}`, { cause: error });
}
