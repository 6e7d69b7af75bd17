import type { AppRunControls } from '@palaver/sdk-react';

/** Start (again); cancel while joining; in the run: leave, mute, and turn on sound where the browser holds it back. */
export function RunControls({ appRun, ready, onStart }: { appRun: AppRunControls; ready: boolean; onStart: () => void }) {
  const inRun = appRun.connectionState !== 'not_connected';
  const connected = appRun.connectionState === 'connected';
  return (
    <nav className="controls" aria-label="Run controls">
      {!inRun ? (
        <button className="primary" data-testid="start" onClick={onStart} disabled={!ready}>
          {appRun.ended ? 'Start again' : 'Start the app'}
        </button>
      ) : !connected ? (
        <button className="danger" data-testid="leave" onClick={() => void appRun.disconnect()}>
          Cancel
        </button>
      ) : (
        <>
          <button className="danger" data-testid="leave" onClick={() => void appRun.disconnect()}>
            Leave
          </button>
          <button data-testid="microphone" aria-pressed={!appRun.microphoneEnabled} onClick={() => void appRun.setMicrophoneEnabled(!appRun.microphoneEnabled)}>
            {appRun.microphoneEnabled ? 'Mute' : 'Unmute'}
          </button>
          {!appRun.canPlayAudio && (
            <button data-testid="enable-audio" onClick={() => void appRun.startAudio()}>
              Turn on sound
            </button>
          )}
        </>
      )}
    </nav>
  );
}
