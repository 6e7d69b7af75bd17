import { useAudioDevices } from '@palaver/sdk-react';
import type { RealtimeSession } from '@palaver/sdk-core/realtime';

/** Microphone and speaker choice; a switch during a call takes effect at once. */
export function DeviceControls({ session, onProblem }: { session: RealtimeSession; onProblem: (message: string) => void }) {
  const devices = useAudioDevices(session);
  const choose = (kind: 'audioinput' | 'audiooutput', id: string) =>
    void devices.choose(kind, id).catch(() => onProblem(`That ${kind === 'audioinput' ? 'microphone' : 'speaker'} could not be used.`));
  const label = (device: MediaDeviceInfo, index: number, kind: string) => device.label || `${kind} ${index + 1}`;
  return (
    <fieldset className="devices">
      <legend>Audio</legend>
      <label className="picker">
        <span>Microphone</span>
        <select data-testid="microphone-device" value={devices.microphone ?? ''} onChange={(event) => choose('audioinput', event.target.value)} onFocus={() => void devices.refresh()}>
          <option value="">System default</option>
          {devices.microphones.filter((device) => device.deviceId && device.deviceId !== 'default').map((device, index) => (
            <option key={device.deviceId} value={device.deviceId}>
              {label(device, index, 'Microphone')}
            </option>
          ))}
        </select>
      </label>
      {devices.speakers.length > 0 && (
        <label className="picker">
          <span>Speaker</span>
          <select data-testid="speaker-device" value={devices.speaker ?? ''} onChange={(event) => choose('audiooutput', event.target.value)}>
            <option value="">System default</option>
            {devices.speakers.filter((device) => device.deviceId && device.deviceId !== 'default').map((device, index) => (
              <option key={device.deviceId} value={device.deviceId}>
                {label(device, index, 'Speaker')}
              </option>
            ))}
          </select>
        </label>
      )}
    </fieldset>
  );
}
