import { useAgentVideo } from '@palaver/sdk-react';
import type { AppRun } from '@palaver/sdk-core/realtime';

/** What the run shows (its Output node's `video`, e.g. a BouncingBall), while it publishes video. */
export function AgentVideoView({ run }: { run: AppRun }) {
  const stream = useAgentVideo(run.session);
  if (!stream) return null;
  return (
    <figure className="agent-video">
      <video
        data-testid="agent-video"
        ref={(video) => {
          if (video && video.srcObject !== stream) video.srcObject = stream;
        }}
        autoPlay
        muted
        playsInline
      />
      <figcaption>What the app shows</figcaption>
    </figure>
  );
}
