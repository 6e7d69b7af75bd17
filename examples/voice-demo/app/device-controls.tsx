import { useAudioDevices } from '@palaver/sdk-react';
import type { RealtimeSession } from '@palaver/sdk-core/realtime';
import { NoiseSuppressionSwitch } from './noise-suppression-switch.js';

/** One device list: the system default first, then the devices by label (a numbered name when the browser hides it). */
function DevicePicker({
  label,
  testId,
  devices,
  value,
  onChoose,
  onFocus,
}: {
  label: 'Microphone' | 'Speaker';
  testId: string;
  devices: readonly MediaDeviceInfo[];
  value: string | undefined;
  onChoose: (deviceId: string) => void;
  onFocus?: () => void;
}) {
  return (
    <label className="picker">
      <span>{label}</span>
      <select data-testid={testId} value={value ?? ''} onChange={(event) => onChoose(event.target.value)} onFocus={onFocus}>
        <option value="">System default</option>
        {devices
          .filter((device) => device.deviceId && device.deviceId !== 'default')
          .map((device, index) => (
            <option key={device.deviceId} value={device.deviceId}>
              {device.label || `${label} ${index + 1}`}
            </option>
          ))}
      </select>
    </label>
  );
}

/** Microphone and speaker choice, and noise suppression; a switch during a call takes effect at once. */
export function DeviceControls({ session, onProblem }: { session: RealtimeSession; onProblem: (message: string) => void }) {
  const devices = useAudioDevices(session);
  const choose = (kind: 'audioinput' | 'audiooutput', id: string) =>
    void devices.choose(kind, id).catch(() => onProblem(`That ${kind === 'audioinput' ? 'microphone' : 'speaker'} could not be used.`));
  return (
    <fieldset className="devices">
      <legend>Audio</legend>
      <DevicePicker
        label="Microphone"
        testId="microphone-device"
        devices={devices.microphones}
        value={devices.microphone}
        onChoose={(id) => choose('audioinput', id)}
        onFocus={() => void devices.refresh()}
      />
      {devices.speakers.length > 0 && (
        <DevicePicker label="Speaker" testId="speaker-device" devices={devices.speakers} value={devices.speaker} onChoose={(id) => choose('audiooutput', id)} />
      )}
      <NoiseSuppressionSwitch />
    </fieldset>
  );
}
