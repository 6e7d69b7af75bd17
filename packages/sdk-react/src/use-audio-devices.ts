import { useCallback, useState } from 'react';
import type { AudioDeviceKind, RealtimeSession } from '@palaver/sdk-core/realtime';
import { useDeviceList } from './use-device-list.js';

export interface AudioDevices {
  microphones: readonly MediaDeviceInfo[];
  speakers: readonly MediaDeviceInfo[];
  /** The chosen microphone's id (undefined: the browser's default). */
  microphone: string | undefined;
  speaker: string | undefined;
  /** Uses a device now and for later calls; rejects when the browser refuses it (the choice is then undone). */
  choose(kind: AudioDeviceKind, deviceId: string): Promise<void>;
  /** Reads the lists again (after the microphone permission was given, labels are filled). */
  refresh(): Promise<void>;
}

/**
 * The microphones and speakers of this device and the session's choice among them, kept up to date when
 * devices come and go. Switching during a call is live.
 *
 * @example
 * const devices = useAudioDevices(agent.session);
 * <select value={devices.microphone ?? ''} onChange={(e) => devices.choose('audioinput', e.target.value)}>
 *   {devices.microphones.map((d) => <option key={d.deviceId} value={d.deviceId}>{d.label}</option>)}
 * </select>
 */
export function useAudioDevices(session: Pick<RealtimeSession, 'listAudioDevices' | 'switchAudioDevice' | 'audioDevice'>): AudioDevices {
  const [chosen, setChosen] = useState(() => ({ microphone: session.audioDevice('audioinput'), speaker: session.audioDevice('audiooutput') }));
  const loadMicrophones = useCallback(() => session.listAudioDevices('audioinput'), [session]);
  const loadSpeakers = useCallback(() => session.listAudioDevices('audiooutput'), [session]);
  const { devices: microphones, refresh: refreshMicrophones } = useDeviceList(loadMicrophones);
  const { devices: speakers, refresh: refreshSpeakers } = useDeviceList(loadSpeakers);
  const refresh = useCallback(async () => {
    await Promise.all([refreshMicrophones(), refreshSpeakers()]);
  }, [refreshMicrophones, refreshSpeakers]);

  const choose = useCallback(
    async (kind: AudioDeviceKind, deviceId: string) => {
      const key = kind === 'audioinput' ? 'microphone' : 'speaker';
      const before = session.audioDevice(kind);
      setChosen((current) => ({ ...current, [key]: deviceId }));
      try {
        await session.switchAudioDevice(kind, deviceId);
      } catch (error) {
        setChosen((current) => ({ ...current, [key]: before }));
        throw error;
      }
    },
    [session],
  );

  return { microphones, speakers, microphone: chosen.microphone, speaker: chosen.speaker, choose, refresh };
}
