import { useEffect, useRef } from 'react';
import { contextMessageText, type ClientPadValue, type GraphContextMessage } from '@palaver/sdk-core/realtime';
import { usePad } from '@palaver/sdk-react';

function messagesOf(value: ClientPadValue | undefined): GraphContextMessage[] {
  if (!value || value.type !== 'list') return [];
  return value.items.filter((item): item is GraphContextMessage => item !== null && item.type === 'context_message');
}

/**
 * The conversation as the graph's LLMContext holds it (its `source` pad: what the human said or typed and
 * what the LLM answered), with the words the STT is still hearing. It stays after the run ends: the run's
 * last values are kept until the next run starts.
 */
const EMPTY = {
  idle: 'Start the app, then talk or type. The conversation appears here.',
  joining: 'The conversation appears here once the app has joined.',
  connected: 'Say something, or type below. The conversation appears here.',
};

export function Conversation({
  context,
  stt,
  phase,
  hearing,
}: {
  context: { node: string; pad: string };
  stt: string | undefined;
  phase: keyof typeof EMPTY;
  hearing: boolean;
}) {
  const source = usePad(context.node, context.pad);
  const lines = messagesOf(source.value).filter(
    (message) => (message.role.value === 'user' || message.role.value === 'assistant') && contextMessageText(message).trim() !== '',
  );
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, which must not reach React.
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [lines.length]);
  const interim = <Interim stt={stt} shown={hearing} />;
  if (lines.length === 0) {
    return (
      <>
        <p className="transcript-empty">{EMPTY[phase]}</p>
        {interim}
      </>
    );
  }
  return (
    <>
      <ol className="transcript" data-testid="conversation" aria-live="polite">
        {lines.map((message, index) => (
          <li key={index} className={message.role.value === 'user' ? 'user' : 'assistant'}>
            <span className="who">{message.role.value === 'user' ? 'You' : 'The app'}</span>
            <span className="words">{contextMessageText(message)}</span>
          </li>
        ))}
        <li ref={end} className="end" aria-hidden="true" />
      </ol>
      {interim}
    </>
  );
}

/** What the STT hears so far of the utterance under way (its `interim_transcription` pad). */
function Interim({ stt, shown }: { stt: string | undefined; shown: boolean }) {
  if (!stt || !shown) return null;
  return <InterimWords stt={stt} />;
}

function InterimWords({ stt }: { stt: string }) {
  const interim = usePad(stt, 'interim_transcription');
  const words = interim.value?.type === 'string' ? interim.value.value : '';
  if (words.trim() === '') return null;
  return (
    <p className="interim" data-testid="interim">
      <span className="who">Hearing</span> {words}
    </p>
  );
}
