import { useEffect, useRef } from 'react';
import type { SDKSessionTranscription } from '@palaver/sdk-core/realtime';
import { lineWords } from './line-words.js';

/** Scrolled this close to the end (px), the list follows new lines; scrolled further up, it stays put. */
const FOLLOW_WITHIN_PX = 48;

/**
 * The conversation so far, both sides, with the words still being heard or said shown as interim and the agent's
 * lines cut by the human marked interrupted. It scrolls inside its own area, following the newest line unless the
 * visitor scrolled up to read.
 */
export function Transcript({ transcriptions, live }: { transcriptions: readonly SDKSessionTranscription[]; live: boolean }) {
  const list = useRef<HTMLOListElement>(null);
  const following = useRef(true);
  // An utterance interrupted before a word was heard has no text: nothing to show.
  const lines = transcriptions.filter((line) => line.text.trim() !== '');
  const last = lines.at(-1);
  useEffect(() => {
    const element = list.current;
    if (!element) {
      following.current = true; // a new call starts at its newest line
      return;
    }
    if (!following.current) return;
    // The list scrolls in its own area, so the message box below it stays in view; a list that does not scroll (a
    // phone's layout, where the page does) brings its last line into view.
    if (element.scrollHeight > element.clientHeight) element.scrollTop = element.scrollHeight;
    else element.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [lines.length, last?.text, last?.interrupted]);
  if (lines.length === 0) {
    return (
      <p className="transcript-empty">
        {live ? 'Say hello, or type below. The conversation appears here.' : 'Start a call, then talk or type. The conversation appears here.'}
      </p>
    );
  }
  return (
    <ol
      ref={list}
      className="transcript"
      data-testid="transcript"
      aria-live="polite"
      onScroll={(event) => {
        const { scrollTop, scrollHeight, clientHeight } = event.currentTarget;
        following.current = scrollHeight - scrollTop - clientHeight <= FOLLOW_WITHIN_PX;
        event.currentTarget.dataset.scrolled = String(scrollTop > 0);
      }}
    >
      {lines.map((line) => (
        <li
          key={`${line.agent ? 'agent' : 'human'}:${line.id}`}
          className={line.agent ? 'agent' : 'human'}
          data-final={line.final}
          data-interrupted={line.interrupted === true}
        >
          <span className="who">{line.agent ? 'Agent' : 'You'}</span>
          <span className="words">{lineWords(line)}</span>
          {!line.final && <span className="interim">{line.agent ? 'speaking' : 'hearing'}</span>}
          {line.interrupted && (
            <span className="interrupted" data-testid="interrupted" title="The agent stopped here: you spoke or typed over it">
              interrupted
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
