import { useSyncExternalStore } from 'react';
import type { RealtimeSession } from '@palaver/sdk-core/realtime';

/** What `useAgentAudioStream` reads from: a realtime session (`useVoiceAgent().session`) or anything like it. */
export type AgentAudioStreamSource = Pick<RealtimeSession, 'agentAudioStream' | 'subscribe' | 'getSnapshot'>;

/**
 * The agent's audio as a `MediaStream`, for recording (`MediaRecorder`) or visualising (Web Audio); undefined
 * while no agent audio is subscribed. Re-renders when the agent's track comes or goes (a resume, a new agent).
 *
 * @example
 * const stream = useAgentAudioStream(agent.session);
 * useEffect(() => { if (stream) recorder.current = new MediaRecorder(stream); }, [stream]);
 */
export function useAgentAudioStream(source: AgentAudioStreamSource | undefined): MediaStream | undefined {
  return useSyncExternalStore(
    (onChange) => source?.subscribe(onChange) ?? (() => {}),
    () => source?.agentAudioStream(),
    () => undefined,
  );
}
