import { useEffect, useMemo, useState } from 'react';
import { AppRunProvider, useAppRun } from '@palaver/sdk-react';
import { graphRoles, loadAppGraph, type AppGraph } from './app-graph.js';
import { AgentVideoView } from './agent-video-view.js';
import { CameraView } from './camera-view.js';
import { Conversation } from './conversation.js';
import { GraphView } from './graph-view.js';
import { MessageComposer } from './message-composer.js';
import { PadControls } from './pad-controls.js';
import { useRunActivity } from './run-activity.js';
import { RunControls } from './run-controls.js';
import { RunDetails } from './run-details.js';
import { fetchRunTicket, runOptions, type RunTicket } from './run-ticket.js';
import { RunVisual } from './run-visual.js';
import { endWords, problemWords, runWords } from './words.js';

/**
 * One run of the demo's app (the Simple Voice AI template): see its graph, start it, talk or type, watch it
 * listen, think and speak, set its pads, leave; the conversation stays until the next run.
 */
export function AppRunView({ platformUrl }: { platformUrl: string }) {
  // Without `publishNode` the microphone is a plain track, which every Publish node of the run takes.
  const appRun = useAppRun({ baseUrl: platformUrl });
  const [ticket, setTicket] = useState<RunTicket>();
  const [graph, setGraph] = useState<AppGraph>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    fetchRunTicket()
      .then(async (first) => {
        setTicket(first);
        setGraph(await loadAppGraph(platformUrl, first));
      })
      .catch((error: unknown) => setProblem(problemWords(error as Error)));
  }, [platformUrl]);

  const roles = useMemo(() => (graph ? graphRoles(graph.nodes) : undefined), [graph]);
  // A graph whose Publish node passes video on (Conversation with video) sees the visitor's camera.
  const seesCamera = graph?.nodes.some((node) => node.type === 'Publish' && node.pads.some((pad) => pad.id === 'video' && pad.next_pads.length > 0)) ?? false;
  const inRun = appRun.connectionState !== 'not_connected';
  const connected = appRun.connectionState === 'connected';
  const activity = useRunActivity(appRun.run, roles, connected);

  const start = async () => {
    setProblem(undefined);
    try {
      // A fresh token per run: the one from page load may have expired.
      const next = await fetchRunTicket();
      setTicket(next);
      await appRun.connect(runOptions(next));
    } catch (error) {
      setProblem(problemWords(error as Error));
    }
  };

  const shownProblem = problem ?? problemWords(appRun.error);

  return (
    <AppRunProvider run={appRun.run}>
      <main className={inRun ? 'run live' : 'run'}>
        <header>
          <h1>Palaver</h1>
          <p className="tagline">An app graph running on this machine: listen, answer with an LLM, speak.</p>
        </header>

        <section className="stage" aria-label="The app">
          <RunVisual run={appRun.run} state={connected ? activity : inRun ? 'joining' : 'idle'} />
          {connected && (
            <div className="videos">
              {seesCamera && <CameraView run={appRun.run} />}
              <AgentVideoView run={appRun.run} />
            </div>
          )}
          <p className="state" data-testid="connection-state" data-state={appRun.connectionState} aria-live="polite">
            {runWords(appRun.state, activity)}
          </p>
          {connected && (
            <span hidden data-testid="activity">
              {activity}
            </span>
          )}
          {connected && !appRun.microphoneEnabled && (
            <p className="muted" data-testid="muted">
              Your microphone is muted. Typing still works.
            </p>
          )}
          {!inRun && appRun.ended && (
            <p className="ended" data-testid="ended" data-reason={appRun.ended.reason}>
              {endWords(appRun.ended)}
            </p>
          )}
        </section>

        <RunControls appRun={appRun} ready={ticket !== undefined} onStart={() => void start()} />

        {shownProblem && (
          <p className="problem" role="alert" data-testid="problem">
            {shownProblem}
          </p>
        )}

        <section className="conversation" aria-labelledby="conversation-title">
          <h2 id="conversation-title">Conversation</h2>
          {roles?.conversation ? (
            <Conversation
              context={roles.conversation}
              stt={roles.stt}
              phase={connected ? 'connected' : inRun ? 'joining' : 'idle'}
              hearing={connected && activity === 'hearing'}
            />
          ) : (
            <p className="transcript-empty">{graph ? 'This graph keeps no conversation to show.' : 'Loading the app…'}</p>
          )}
          {inRun && roles?.textEntry && <MessageComposer run={appRun.run} entry={roles.textEntry} connected={connected} onProblem={setProblem} />}
        </section>

        <aside className="setup">{graph && <PadControls nodes={graph.nodes} connected={connected} />}</aside>

        <section className="what-runs" aria-labelledby="graph-title">
          <h2 id="graph-title">What runs</h2>
          {graph && (
            <p className="panel-hint" data-testid="graph-caption">
              {graph.name}, version {graph.version}: {graph.nodes.length} nodes. Your microphone feeds the Publish node; the Output node plays the answer.
            </p>
          )}
          {graph && <GraphView nodes={graph.nodes} activity={connected ? activity : undefined} />}
          <RunDetails runId={appRun.runId} logs={appRun.logs} />
        </section>
      </main>
    </AppRunProvider>
  );
}
