import { describe, expect, it } from 'vitest';
import { PalaverError } from '../errors/palaver-error.js';
import { MediaDeviceError, mediaDeviceError } from './media-device-error.js';

describe('mediaDeviceError', () => {
  it("types the browser's capture refusals (DOMException names of getUserMedia/getDisplayMedia)", () => {
    const cases: Array<[string, string]> = [
      ['NotAllowedError', 'permission_denied'],
      ['NotFoundError', 'not_found'],
      ['NotReadableError', 'device_in_use'],
      ['AbortError', 'other'],
    ];
    for (const [name, reason] of cases) {
      const cause = new DOMException('refused', name);
      const error = mediaDeviceError('camera', cause);
      expect(MediaDeviceError.isInstance(error) && PalaverError.isInstance(error)).toBe(true);
      expect({ name: error.name, capture: error.capture, reason: error.reason, cause: error.cause }).toEqual({
        name: 'MediaDeviceError',
        capture: 'camera',
        reason,
        cause,
      });
    }
    expect(mediaDeviceError('screen_share', new DOMException('Permission denied', 'NotAllowedError')).message).toBe(
      'the screen share failed (permission_denied): Permission denied',
    );
  });
});
