import { useAudioLevels } from '@palaver/sdk-react';
import type { AppRun } from '@palaver/sdk-core/realtime';
import type { RunActivity } from './run-activity.js';

const BANDS = 9;

/**
 * The running graph as a row of bars that move with what it says (the Output node's audio, in bands),
 * over a ring that swells with the visitor's microphone; coloured by what the graph is doing, pulsing
 * while the run is being joined. Only this component re-renders per frame.
 */
export function RunVisual({ run, state }: { run: AppRun; state: RunActivity | 'joining' | 'idle' }) {
  const { agent, microphone } = useAudioLevels(state !== 'idle' && state !== 'joining' ? run : undefined, { bands: BANDS });
  const heard = Math.max(...microphone);
  return (
    <div className="visual" data-state={state} aria-hidden="true">
      <div className="ring" style={{ transform: `scale(${1 + heard * 0.2})` }} />
      <div className="bars">
        {agent.map((level, index) => (
          <span key={index} style={{ height: `${14 + level * 86}%` }} />
        ))}
      </div>
    </div>
  );
}
