import { useEffect, useState } from 'react';
import { useVoiceAgent, VoiceAgentProvider } from '@palaver/sdk-react';
import type { RealtimeSessionConfigCreate } from '@palaver/sdk-core';
import { AgentVisual } from './agent-visual.js';
import { CallSettings, type CallChoices } from './call-settings.js';
import { DeviceControls } from './device-controls.js';
import { loadCatalog, type Catalog } from './platform-catalog.js';
import { RecordingDownload } from './recording-download.js';
import { fetchSessionTicket, type SessionTicket } from './session-ticket.js';
import { TimeLeft, WARNING_SECONDS } from './time-left.js';
import { Transcript } from './transcript.js';
import { TurnTimings } from './turn-timings.js';
import { StartWithMicrophone, VoiceControls, VoiceNotes } from './voice-controls.js';
import { callWords, endWords, problemWords } from './words.js';

/** Ten minutes, unless the page says otherwise (`?time_limit_s=90`). */
function timeLimit(): number {
  const asked = Number(new URLSearchParams(location.search).get('time_limit_s'));
  return Number.isInteger(asked) && asked > 0 ? asked : 600;
}

function sessionConfig(choices: CallChoices, suggestedLlm: string): RealtimeSessionConfigCreate {
  // A LiveKit Agents worker's agent brings its own behaviour: the session names only it (the other sections are optional).
  // Either is recorded when asked (the platform's observer records a worker's session: decision 0122).
  const recording = choices.record ? { recording: true } : {};
  if (choices.worker) return { general: { time_limit_s: timeLimit(), agent: { type: 'livekit_worker', agent_name: choices.worker }, ...recording } };
  return {
    general: { time_limit_s: timeLimit(), ...recording },
    input: { interruptable: true },
    generative: {
      llm: choices.llm || suggestedLlm,
      ...(choices.persona ? { persona: choices.persona } : {}),
      ...(choices.voice ? { voice_override: choices.voice } : {}),
    },
    output: { answer_message: 'Hello! I am the Palaver demo agent. Say something, or type below.' },
  };
}

/**
 * One call with the agent: pick who it is, call, talk or type (or both: the microphone and the agent's voice switch
 * on and off during the call), watch it listen and speak, hang up. The small parts read their own slice of the
 * session through `<VoiceAgentProvider>` and `useVoiceAgent(selector)`.
 */
export function VoiceCall({ platformUrl }: { platformUrl: string }) {
  const agent = useVoiceAgent({ baseUrl: platformUrl, remainingSecondsWarningAt: WARNING_SECONDS });
  const [ticket, setTicket] = useState<SessionTicket>();
  const [catalog, setCatalog] = useState<Catalog>();
  const [choices, setChoices] = useState<CallChoices>({ persona: '', voice: '', llm: '', worker: '', record: false });
  /** The last call, when it was recorded: its recording can be downloaded once it ended. */
  const [recorded, setRecorded] = useState<{ token: string; sessionId?: string }>();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    fetchSessionTicket()
      .then(async (first) => {
        setTicket(first);
        setCatalog(await loadCatalog(platformUrl, first.token));
      })
      .catch((error: unknown) => setProblem((error as Error).message));
  }, [platformUrl]);

  const live = agent.connectionState !== 'not_connected';
  const connected = agent.connectionState === 'connected';

  const call = async () => {
    setProblem(undefined);
    try {
      // A fresh token per call: the one from page load may have expired.
      const current = await fetchSessionTicket();
      setTicket(current);
      setRecorded(choices.record ? { token: current.token } : undefined);
      await agent.connect({ token: current.token, config: sessionConfig(choices, current.llm) });
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  const send = async () => {
    const text = typed.trim();
    if (text === '') return;
    setTyped('');
    await agent.sendChatMessage({ text }).catch(() => setProblem('The message was not sent: the agent is not in the call.'));
  };

  const shownProblem = problem ?? problemWords(agent.error);
  const recordedSession = recorded && (recorded.sessionId ?? agent.sessionId);
  useEffect(() => {
    if (recorded && !recorded.sessionId && agent.sessionId) setRecorded({ ...recorded, sessionId: agent.sessionId });
  }, [recorded, agent.sessionId]);

  return (
    <VoiceAgentProvider session={agent.session}>
      <main className={live ? 'call live' : 'call'}>
        <header>
          <h1>Palaver</h1>
          <p className="tagline">Talk to a voice agent running on this machine.</p>
        </header>

        <section className="stage" aria-label="The agent">
          <AgentVisual session={agent.session} state={agent.agentState} live={connected} />
          <p className="state" data-testid="connection-state" data-state={agent.connectionState} data-reason={agent.resumeReason} aria-live="polite">
            {callWords(agent.connectionState, agent.agentState)}
          </p>
          {agent.agentState && (
            <span hidden data-testid="agent-state">
              {agent.agentState}
            </span>
          )}
          <TimeLeft />
          <VoiceNotes />
          {!live && agent.ended && (
            <p className="ended" data-testid="ended" data-reason={agent.ended.reason}>
              {endWords(agent.ended)}
            </p>
          )}
          {!live && agent.ended && recorded && recordedSession && (
            <RecordingDownload platformUrl={platformUrl} token={recorded.token} sessionId={recordedSession} />
          )}
        </section>

        <nav className="controls" aria-label="Call controls">
          {!live ? (
            <>
              <button className="primary" data-testid="call" onClick={() => void call()} disabled={!ticket}>
                {agent.ended ? 'Call again' : 'Start a call'}
              </button>
              <StartWithMicrophone />
            </>
          ) : (
            <>
              <button className="danger" data-testid="hang-up" onClick={() => void agent.disconnect()}>
                Hang up
              </button>
              <VoiceControls />
              {!agent.canPlayAudio && (
                <button data-testid="enable-audio" onClick={() => void agent.startAudio()}>
                  Turn on sound
                </button>
              )}
            </>
          )}
        </nav>

        {shownProblem && (
          <p className="problem" role="alert" data-testid="problem">
            {shownProblem}
          </p>
        )}

        <section className="conversation" aria-label="Conversation">
          <Transcript transcriptions={agent.transcriptions} live={live} />
          {live && (
            <form
              className="composer"
              onSubmit={(event) => {
                event.preventDefault();
                void send();
              }}
            >
              <input
                data-testid="chat-input"
                aria-label="Message to the agent"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                placeholder="Type a message"
                disabled={!connected}
              />
              <button type="submit" disabled={!connected || typed.trim() === ''}>
                Send
              </button>
            </form>
          )}
          <TurnTimings latencies={agent.turnLatencies} agentTurns={agent.agentTurns} />
        </section>

        <aside className="setup">
          <CallSettings catalog={catalog} choices={choices} onChange={setChoices} disabled={live} />
          <DeviceControls session={agent.session} onProblem={setProblem} />
        </aside>
      </main>
    </VoiceAgentProvider>
  );
}
