import { useState } from 'react';
import { usePad } from '@palaver/sdk-react';

/** The system prompt node's `content` pad: shown live, and set with `push` (a property pad of the running graph). */
export function SystemPrompt() {
  const content = usePad('system_prompt', 'content');
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string>();
  const current = content.value?.type === 'string' ? content.value.value : '';
  return (
    <form
      className="prompt"
      onSubmit={(event) => {
        event.preventDefault();
        if (draft.trim() === '') return;
        setProblem(undefined);
        content.push(draft.trim()).then(() => setDraft(''), (error: unknown) => setProblem((error as Error).message));
      }}
    >
      <label>
        System prompt: <span data-testid="system-prompt">{current}</span>
      </label>
      <div className="row">
        <input data-testid="system-prompt-input" value={draft} onChange={(event) => setDraft(event.target.value)} placeholder="A new system prompt" />
        <button type="submit">Set</button>
      </div>
      {problem && <p className="problem">{problem}</p>}
    </form>
  );
}
