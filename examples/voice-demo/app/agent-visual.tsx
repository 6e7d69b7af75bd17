import { useAudioLevels } from '@palaver/sdk-react';
import type { RealtimeSession, SDKAgentState } from '@palaver/sdk-core/realtime';

const BANDS = 7;

/**
 * The agent as a ring of bars that move with its voice (multiband levels), around a core that swells with
 * the visitor's microphone. Only this component re-renders per frame (`useAudioLevels`).
 */
export function AgentVisual({ session, state, live }: { session: RealtimeSession; state: SDKAgentState | undefined; live: boolean }) {
  const { agent, microphone } = useAudioLevels(live ? session : undefined, { bands: BANDS });
  const heard = Math.max(...microphone);
  return (
    <div className="visual" data-state={live ? (state ?? 'joining') : 'idle'} aria-hidden="true">
      <div className="core" style={{ transform: `scale(${1 + heard * 0.35})` }} />
      <div className="bars">
        {agent.map((level, index) => (
          <span key={index} style={{ height: `${12 + level * 88}%` }} />
        ))}
      </div>
    </div>
  );
}
