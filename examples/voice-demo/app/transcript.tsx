import { useEffect, useRef } from 'react';
import type { SDKSessionTranscription } from '@palaver/sdk-core/realtime';

/** The conversation so far, both sides, with the words still being heard or said shown as interim. */
export function Transcript({ transcriptions, live }: { transcriptions: readonly SDKSessionTranscription[]; live: boolean }) {
  const end = useRef<HTMLLIElement>(null);
  // An utterance interrupted before a word was heard has no text: nothing to show.
  const lines = transcriptions.filter((line) => line.text.trim() !== '');
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, which must not reach React.
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [lines.length, lines.at(-1)?.text]);
  if (lines.length === 0) {
    return <p className="transcript-empty">{live ? 'Say hello, or type below. The conversation appears here.' : 'Start a call, then talk or type. The conversation appears here.'}</p>;
  }
  return (
    <ol className="transcript" data-testid="transcript" aria-live="polite">
      {lines.map((line) => (
        <li key={`${line.agent ? 'agent' : 'human'}:${line.id}`} className={line.agent ? 'agent' : 'human'} data-final={line.final}>
          <span className="who">{line.agent ? 'Agent' : 'You'}</span>
          <span className="words">{line.text}</span>
          {!line.final && <span className="interim">{line.agent ? 'speaking' : 'hearing'}</span>}
        </li>
      ))}
      <li ref={end} className="end" aria-hidden="true" />
    </ol>
  );
}
