import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A list of devices read with `load`, read again when devices come and go (`devicechange`) and on `refresh()`
 * (after a permission was given, labels are filled).
 */
export function useDeviceList(load: () => Promise<MediaDeviceInfo[]>): { devices: readonly MediaDeviceInfo[]; refresh: () => Promise<void> } {
  const [devices, setDevices] = useState<readonly MediaDeviceInfo[]>([]);
  const last = useRef(devices);
  const refresh = useCallback(async () => {
    const next = await load();
    // The same list (ids and labels) is no change: no setState at all (a bailed-out one still costs React a render later).
    if (sameDevices(last.current, next)) return;
    last.current = next;
    setDevices(next);
  }, [load]);
  useEffect(() => {
    void refresh().catch(() => undefined);
    const media = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
    if (!media?.addEventListener) return;
    const onChange = () => void refresh().catch(() => undefined);
    media.addEventListener('devicechange', onChange);
    return () => media.removeEventListener('devicechange', onChange);
  }, [refresh]);
  return { devices, refresh };
}

function sameDevices(left: readonly MediaDeviceInfo[], right: readonly MediaDeviceInfo[]): boolean {
  return left.length === right.length && left.every((device, index) => device.deviceId === right[index]!.deviceId && device.label === right[index]!.label);
}
