import { useEffect, useRef, useState } from 'react';
import type { AudioSource, RealtimeSession } from '@palaver/sdk-core/realtime';

/** What `useAudioLevels` reads from: a realtime session (`useVoiceAgent().session`) or anything like it. */
export type AudioLevelSource = Pick<RealtimeSession, 'getFrequencyBands'>;

export interface UseAudioLevelsOptions {
  /** Frequency bands per side, low to high (default 5). */
  bands?: number;
  /** Readings per second at most (default 30; the animation frame rate caps it). */
  fps?: number;
}

export interface AudioLevels {
  /** The agent's bands, 0..1 each. */
  agent: readonly number[];
  /** The microphone's bands, 0..1 each. */
  microphone: readonly number[];
}

const quantum = 1 / 64;

function changed(previous: readonly number[], next: readonly number[]): boolean {
  return previous.length !== next.length || next.some((value, index) => Math.abs(value - previous[index]!) >= quantum);
}

/**
 * Multiband audio levels of the agent and the microphone, for visualizers. Only the component that calls it
 * re-renders, at most `fps` times a second and only when a band moved: call it in a small visualizer
 * component, not at the top of the call, and the rest of the tree never renders per frame.
 *
 * @example
 * function Orb({ session }: { session: RealtimeSession }) {
 *   const { agent, microphone } = useAudioLevels(session, { bands: 7 });
 *   return <div style={{ transform: `scale(${1 + Math.max(...agent) / 2})` }} />;
 * }
 */
export function useAudioLevels(source: AudioLevelSource | undefined, options: UseAudioLevelsOptions = {}): AudioLevels {
  const bands = options.bands ?? 5;
  const fps = options.fps ?? 30;
  const [levels, setLevels] = useState<AudioLevels>(() => ({ agent: new Array<number>(bands).fill(0), microphone: new Array<number>(bands).fill(0) }));
  const latest = useRef(levels);

  useEffect(() => {
    if (!source) {
      // Nothing to hear any more: the levels fall to zero instead of freezing at the last reading.
      if (latest.current.agent.some((value) => value > 0) || latest.current.microphone.some((value) => value > 0)) {
        latest.current = { agent: new Array<number>(bands).fill(0), microphone: new Array<number>(bands).fill(0) };
        setLevels(latest.current);
      }
      return;
    }
    let frame = 0;
    let last = 0;
    const schedule =
      typeof requestAnimationFrame === 'function'
        ? requestAnimationFrame
        : (callback: FrameRequestCallback) => setTimeout(() => callback(performance.now()), 1000 / fps) as unknown as number;
    const cancel = typeof cancelAnimationFrame === 'function' ? cancelAnimationFrame : (handle: number) => clearTimeout(handle);
    const read = (now: number) => {
      frame = schedule(read);
      if (now - last < 1000 / fps) return;
      last = now;
      const next: AudioLevels = {
        agent: source.getFrequencyBands('agent' satisfies AudioSource, bands),
        microphone: source.getFrequencyBands('microphone', bands),
      };
      if (changed(latest.current.agent, next.agent) || changed(latest.current.microphone, next.microphone)) {
        latest.current = next;
        setLevels(next);
      }
    };
    frame = schedule(read);
    return () => cancel(frame);
  }, [source, bands, fps]);

  return levels;
}
