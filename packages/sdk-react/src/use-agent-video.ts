import { useSyncExternalStore } from 'react';
import type { RealtimeSession } from '@palaver/sdk-core/realtime';

/** What `useAgentVideo` reads from: a realtime session (`useVoiceAgent().session`, `useAppRun().session`). */
export type AgentVideoSource = Pick<RealtimeSession, 'agentVideoStream' | 'subscribe' | 'getSnapshot'>;

/**
 * The agent's video (an app run's Output `video` track) as a `MediaStream` for a `<video>`; undefined while the agent
 * publishes none. Re-renders only when the track comes or goes.
 *
 * @example
 * const video = useAgentVideo(run.session);
 * <video ref={(element) => { if (element) element.srcObject = video ?? null; }} autoPlay muted playsInline />
 */
export function useAgentVideo(source: AgentVideoSource | undefined): MediaStream | undefined {
  return useSyncExternalStore(
    (onChange) => source?.subscribe(onChange) ?? (() => {}),
    () => source?.agentVideoStream(),
    () => undefined,
  );
}
