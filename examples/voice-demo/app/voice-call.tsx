import { useState } from 'react';
import { useVoiceAgent } from '@palaver/sdk-react';
import type { RealtimeSessionConfigCreate } from '@palaver/sdk-core';
import { fetchSessionTicket } from './session-ticket.js';
import { Transcript } from './transcript.js';
import { TurnTimings } from './turn-timings.js';

/** The session every visitor gets: the LLM the backend picked, the default voice, ten minutes. */
function demoConfig(llm: string): RealtimeSessionConfigCreate {
  return {
    general: { time_limit_s: 600 },
    input: { interruptable: true },
    generative: { llm },
    output: { answer_message: 'Hello! I am the Palaver demo agent. Say something, or type below.' },
  };
}

/** One call with the agent: connect, talk or type, read the transcript, hang up. */
export function VoiceCall({ platformUrl }: { platformUrl: string }) {
  const agent = useVoiceAgent({ baseUrl: platformUrl });
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string>();

  const call = async () => {
    setProblem(undefined);
    try {
      const ticket = await fetchSessionTicket();
      await agent.connect({ token: ticket.token, config: demoConfig(ticket.llm) });
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  const send = async () => {
    const text = typed.trim();
    if (text === '') return;
    setTyped('');
    await agent.sendChatMessage({ text }).catch((error: unknown) => setProblem((error as Error).message));
  };
  const live = agent.connectionState !== 'not_connected';

  return (
    <main>
      <h1>Palaver voice demo</h1>
      <p className="status" data-testid="status">
        <span data-testid="connection-state">{agent.connectionState}</span>
        {agent.agentState && (
          <>
            {' · agent '}
            <span data-testid="agent-state">{agent.agentState}</span>
          </>
        )}
        {agent.remainingSeconds !== null && <> · {agent.remainingSeconds}s left</>}
      </p>
      <div className="controls">
        {!live ? (
          <button data-testid="call" onClick={() => void call()}>
            Start a call
          </button>
        ) : (
          <>
            <button data-testid="hang-up" onClick={() => void agent.disconnect()}>
              Hang up
            </button>
            <button data-testid="microphone" onClick={() => void agent.setMicrophoneEnabled(!agent.microphoneEnabled)}>
              {agent.microphoneEnabled ? 'Mute microphone' : 'Unmute microphone'}
            </button>
            {!agent.canPlayAudio && <button onClick={() => void agent.startAudio()}>Enable audio</button>}
          </>
        )}
      </div>
      <Transcript transcriptions={agent.transcriptions} />
      <TurnTimings latencies={agent.turnLatencies} agentTurns={agent.agentTurns} />
      {live && (
        <form
          className="chat"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <input data-testid="chat-input" value={typed} onChange={(event) => setTyped(event.target.value)} placeholder="Type to the agent" />
          <button type="submit">Send</button>
        </form>
      )}
      {(problem ?? agent.error?.message) && (
        <p className="problem" data-testid="problem">
          {problem ?? agent.error?.message}
        </p>
      )}
      {agent.ended && <p data-testid="ended">Call ended: {agent.ended.reason}</p>}
    </main>
  );
}
