import { useState } from 'react';
import { AppRunProvider, useAppRun } from '@palaver/sdk-react';
import { Conversation } from './conversation.js';
import { fetchRunTicket } from './run-ticket.js';
import { RunLogs } from './run-logs.js';
import { SystemPrompt } from './system-prompt.js';

/** One run of the Simple Voice AI app: start it, talk, watch its pads and logs, leave. */
export function AppRunView({ platformUrl }: { platformUrl: string }) {
  // The microphone feeds the graph's Publish node `publish` (its track is named `publish:audio`).
  const appRun = useAppRun({ baseUrl: platformUrl, publishNode: 'publish' });
  const [problem, setProblem] = useState<string>();

  const start = async () => {
    setProblem(undefined);
    try {
      const { human: _human, ...ticket } = await fetchRunTicket();
      await appRun.connect(ticket);
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  const live = appRun.connectionState !== 'not_connected';

  return (
    <main>
      <h1>Palaver app run demo</h1>
      <p className="intro">
        The <em>Simple Voice AI</em> template running as an app graph: Publish → STT → LLMContext → LLM → TTS → Output, with barge-in.
      </p>
      <p className="status" data-testid="status">
        <span data-testid="connection-state">{appRun.connectionState}</span>
        {appRun.runId && (
          <>
            {' · run '}
            <code data-testid="run-id">{appRun.runId}</code>
          </>
        )}
      </p>
      <div className="controls">
        {!live ? (
          <button data-testid="start" onClick={() => void start()}>
            Start the app
          </button>
        ) : (
          <>
            <button data-testid="leave" onClick={() => void appRun.disconnect()}>
              Leave
            </button>
            <button data-testid="microphone" onClick={() => void appRun.setMicrophoneEnabled(!appRun.microphoneEnabled)}>
              {appRun.microphoneEnabled ? 'Mute microphone' : 'Unmute microphone'}
            </button>
            {!appRun.canPlayAudio && <button onClick={() => void appRun.startAudio()}>Enable audio</button>}
          </>
        )}
      </div>
      {appRun.connectionState === 'connected' && (
        <AppRunProvider run={appRun.run}>
          <SystemPrompt />
          <Conversation />
        </AppRunProvider>
      )}
      <RunLogs logs={appRun.logs} />
      {(problem ?? appRun.error?.message) && (
        <p className="problem" data-testid="problem">
          {problem ?? appRun.error?.message}
        </p>
      )}
      {appRun.ended && <p data-testid="ended">Run left: {appRun.ended.reason}</p>}
    </main>
  );
}
