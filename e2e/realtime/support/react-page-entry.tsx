// Bundled with esbuild into the React test page: a small app on `useVoiceAgent` (@palaver/sdk-react, from
// source). The tests read what it renders and press its buttons, like a user.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useVoiceAgent } from '@palaver/sdk-react';

function App() {
  const agent = useVoiceAgent({ microphone: false, agentTimeoutMs: 20_000 });
  const [details, setDetails] = useState<{ url: string; token: string } | null>(null);
  const [draft, setDraft] = useState('');
  (window as unknown as { setConnectionDetails: typeof setDetails }).setConnectionDetails = setDetails;
  return (
    <main>
      <p data-testid="connection">{agent.connectionState}</p>
      <p data-testid="agent">{agent.agentState ?? 'none'}</p>
      <p data-testid="remaining">{agent.remainingSeconds ?? 'unlimited'}</p>
      <p data-testid="error">{agent.error?.message ?? ''}</p>
      <p data-testid="ended">{agent.ended?.reason ?? ''}</p>
      <ol data-testid="transcript">
        {agent.transcriptions.map((item) => (
          <li key={`${item.agent}:${item.id}`}>{`${item.agent ? 'agent' : 'me'}: ${item.text}`}</li>
        ))}
      </ol>
      <button disabled={!details} onClick={() => details && void agent.connect({ connection_details: details })}>
        Call
      </button>
      <input aria-label="message" value={draft} onChange={(event) => setDraft(event.target.value)} />
      <button onClick={() => void agent.sendChatMessage({ text: draft }).then(() => setDraft(''))}>Send</button>
      <button onClick={() => void agent.disconnect()}>Hang up</button>
    </main>
  );
}

createRoot(document.body.appendChild(document.createElement('div'))).render(<App />);
