import { useCamera } from '@palaver/sdk-react';
import type { AppRun } from '@palaver/sdk-core/realtime';

/**
 * The visitor's camera, for graphs whose Publish node takes video: a switch and the preview of what the run sees.
 * The connector names the track after the Publish node (`publish:video`).
 */
export function CameraView({ run }: { run: AppRun }) {
  const camera = useCamera(run.session);
  return (
    <div className="camera">
      {camera.stream && (
        <video
          data-testid="camera-preview"
          ref={(video) => {
            if (video && video.srcObject !== camera.stream) video.srcObject = camera.stream ?? null;
          }}
          autoPlay
          muted
          playsInline
        />
      )}
      <button data-testid="camera" aria-pressed={camera.wanted} disabled={camera.pending} onClick={() => void camera.toggle()}>
        {camera.wanted ? 'Camera off' : 'Camera on'}
      </button>
      {camera.error && <p className="problem">{camera.error.message}</p>}
    </div>
  );
}
