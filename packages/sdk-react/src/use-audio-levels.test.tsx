// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAudioDevices, useAudioLevels, type AudioLevelSource } from './index.js';

/** A source whose agent level rises with every reading, like speech starting. */
function risingSource(): AudioLevelSource & { reads: number } {
  const source = {
    reads: 0,
    getFrequencyBands(which: 'agent' | 'microphone', count = 5) {
      if (which === 'agent') source.reads += 1;
      const level = which === 'agent' ? Math.min(1, source.reads / 20) : 0;
      return new Array<number>(count).fill(level);
    },
  };
  return source;
}

function Meter({ source }: { source: AudioLevelSource }) {
  const { agent, microphone } = useAudioLevels(source, { bands: 3, fps: 60 });
  const renders = useRef(0);
  renders.current += 1;
  return (
    <p data-testid="meter" data-renders={renders.current}>
      {agent.map((value) => value.toFixed(2)).join(' ')} | {microphone.join(' ')}
    </p>
  );
}

function Page({ source }: { source: AudioLevelSource }) {
  const renders = useRef(0);
  renders.current += 1;
  return (
    <main data-testid="page" data-renders={renders.current}>
      <Meter source={source} />
    </main>
  );
}

afterEach(cleanup);

describe('useAudioLevels', () => {
  it('re-renders only the component that reads the levels, and only when they move', async () => {
    const source = risingSource();
    render(<Page source={source} />);
    await waitFor(() => expect(screen.getByTestId('meter').textContent).toContain('1.00 1.00 1.00'), { timeout: 3000 });
    const meterRenders = Number(screen.getByTestId('meter').dataset.renders);
    expect(meterRenders).toBeGreaterThan(5);
    expect(screen.getByTestId('page').dataset.renders).toBe('1');
    // Levels at rest: reading goes on, rendering stops.
    const readsAtRest = source.reads;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(source.reads).toBeGreaterThan(readsAtRest);
    expect(Number(screen.getByTestId('meter').dataset.renders)).toBe(meterRenders);
  });

  it('falls to zero when the source goes away (the call ended)', async () => {
    const source = risingSource();
    const { rerender } = render(<Meter source={source} />);
    await waitFor(() => expect(screen.getByTestId('meter').textContent).toContain('1.00'), { timeout: 3000 });
    function Gone() {
      const { agent } = useAudioLevels(undefined, { bands: 3 });
      return <p data-testid="meter">{agent.map((value) => value.toFixed(2)).join(' ')}</p>;
    }
    rerender(<Gone />);
    expect(screen.getByTestId('meter').textContent).toBe('0.00 0.00 0.00');
  });

  it('reads nothing without a source', async () => {
    function Empty() {
      const { agent } = useAudioLevels(undefined, { bands: 4 });
      return <p data-testid="empty">{agent.join(',')}</p>;
    }
    render(<Empty />);
    expect(screen.getByTestId('empty').textContent).toBe('0,0,0,0');
  });
});

describe('useAudioDevices', () => {
  it('lists microphones and speakers and keeps a refused choice from sticking', async () => {
    const chosen: Record<string, string | undefined> = {};
    const session = {
      listAudioDevices: async (kind: 'audioinput' | 'audiooutput') => [
        { deviceId: `${kind}-1`, label: kind === 'audioinput' ? 'Desk microphone' : 'Headphones', kind, groupId: 'g' } as MediaDeviceInfo,
      ],
      audioDevice: (kind: 'audioinput' | 'audiooutput') => chosen[kind],
      switchAudioDevice: async (kind: 'audioinput' | 'audiooutput', id: string) => {
        if (id === 'broken') throw new Error('refused');
        chosen[kind] = id;
      },
    };
    let devices: ReturnType<typeof useAudioDevices> | undefined;
    function Picker() {
      devices = useAudioDevices(session);
      return (
        <p data-testid="devices">
          {[...devices.microphones, ...devices.speakers].map((device) => device.label).join(', ')} / {devices.microphone ?? 'default'}
        </p>
      );
    }
    render(<Picker />);
    await waitFor(() => expect(screen.getByTestId('devices').textContent).toBe('Desk microphone, Headphones / default'));
    await devices!.choose('audioinput', 'audioinput-1');
    await waitFor(() => expect(screen.getByTestId('devices').textContent).toContain('/ audioinput-1'));
    await expect(devices!.choose('audioinput', 'broken')).rejects.toThrow('refused');
    await waitFor(() => expect(screen.getByTestId('devices').textContent).toContain('/ audioinput-1'));
  });
});
