import { useState } from 'react';
import type { AppRun } from '@palaver/sdk-core/realtime';
import { problemWords } from './words.js';

/**
 * Typing into the conversation through the graph's own text entry (a pad pushed over the runtime API):
 * the words become a user message as a transcription would, and the LLM answers them.
 */
export function MessageComposer({
  run,
  entry,
  connected,
  onProblem,
}: {
  run: AppRun;
  entry: { node: string; pad: string };
  connected: boolean;
  onProblem: (message: string | undefined) => void;
}) {
  const [typed, setTyped] = useState('');
  const send = async () => {
    const text = typed.trim();
    if (text === '') return;
    setTyped('');
    onProblem(undefined);
    await run
      .pushValue(entry.node, entry.pad, { type: 'string', value: text })
      .catch((error: unknown) => onProblem(`The message was not sent. ${problemWords(error as Error)}`));
  };
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <input
        data-testid="chat-input"
        aria-label="Message to the app"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        placeholder="Type a message"
        disabled={!connected}
      />
      <button type="submit" data-testid="send" disabled={!connected || typed.trim() === ''}>
        Send
      </button>
    </form>
  );
}
