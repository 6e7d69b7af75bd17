import type { SDKSessionTranscription } from '@palaver/sdk-core/realtime';

/** The conversation so far, human and agent, as the connector orders it. */
export function Transcript({ transcriptions }: { transcriptions: readonly SDKSessionTranscription[] }) {
  // An utterance interrupted before a word was heard has no text: nothing to show.
  const lines = transcriptions.filter((line) => line.text.trim() !== '');
  if (lines.length === 0) return null;
  return (
    <ol className="transcript" data-testid="transcript">
      {lines.map((line) => (
        <li key={`${line.agent ? 'agent' : 'human'}:${line.id}`} className={line.agent ? 'agent' : 'human'} data-final={line.final}>
          <strong>{line.agent ? 'Agent' : 'You'}:</strong> {line.text}
        </li>
      ))}
    </ol>
  );
}
