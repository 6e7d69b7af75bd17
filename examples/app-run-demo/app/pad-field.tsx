import { useId, useState } from 'react';
import { usePad } from '@palaver/sdk-react';
import { describeValue, typedValue, valueText, type ShownPad } from './pad-values.js';
import { problemWords } from './words.js';

/** The pad's name (when the label is another) and type beside its label: what the graph calls it. */
function PadName({ shown }: { shown: ShownPad }) {
  return (
    <span className="pad-name">
      {shown.label.toLowerCase() !== shown.pad.replace(/_/g, ' ') && <code>{shown.pad}</code>} <span className="pad-type">{shown.dataType}</span>
    </span>
  );
}

/** A pad the graph computes: its live value, once a run has sent one (the stored one may be stale). */
export function PadReading({ shown }: { shown: ShownPad }) {
  const live = usePad(shown.node, shown.pad);
  return (
    <div className="pad reading">
      <span className="pad-label">
        {shown.label} <PadName shown={shown} />
      </span>
      <output className={live.value === undefined ? 'pad-value pending' : 'pad-value'} data-testid={`pad-value-${shown.node}.${shown.pad}`}>
        {live.value === undefined ? 'Shown while the app runs' : describeValue(live.value)}
      </output>
    </div>
  );
}

/**
 * A pad the visitor may set: a control holding the pad's value (live while running), and Apply, which
 * pushes what was entered into the running graph.
 */
export function PadControl({ shown, connected }: { shown: ShownPad; connected: boolean }) {
  const live = usePad(shown.node, shown.pad);
  const id = useId();
  const [draft, setDraft] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [applying, setApplying] = useState(false);
  const current = valueText(live.value ?? shown.stored);
  const text = draft ?? current;
  const changed = draft !== undefined && draft !== current;
  const testId = `${shown.node}.${shown.pad}`;

  const apply = async () => {
    setProblem(undefined);
    try {
      const value = typedValue(shown, text);
      setApplying(true);
      // The run sends the pad's new value before it answers the push: the control shows it at once.
      await live.push(value);
      setDraft(undefined);
    } catch (error) {
      setProblem(problemWords(error as Error));
    } finally {
      setApplying(false);
    }
  };
  const edit = (next: string) => {
    setProblem(undefined);
    setDraft(next);
  };
  const common = { id, 'data-testid': `pad-${testId}`, disabled: !connected || applying };

  return (
    <form
      className="pad control"
      onSubmit={(event) => {
        event.preventDefault();
        if (changed) void apply();
      }}
    >
      <label className="pad-label" htmlFor={id}>
        {shown.label} <PadName shown={shown} />
      </label>
      <div className={shown.multiline ? 'pad-input stacked' : 'pad-input'}>
        {shown.options ? (
          <select {...common} value={text} onChange={(event) => edit(event.target.value)}>
            {shown.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : shown.dataType === 'boolean' ? (
          <input {...common} type="checkbox" checked={text === 'true'} onChange={(event) => edit(String(event.target.checked))} />
        ) : shown.multiline ? (
          <textarea
            {...common}
            rows={3}
            value={text}
            onChange={(event) => edit(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && changed) void apply();
            }}
          />
        ) : (
          <input
            {...common}
            type={shown.dataType === 'integer' || shown.dataType === 'float' ? 'number' : 'text'}
            {...(shown.minimum !== undefined ? { min: shown.minimum } : {})}
            {...(shown.maximum !== undefined ? { max: shown.maximum } : {})}
            step={shown.dataType === 'float' ? 'any' : undefined}
            value={text}
            placeholder={shown.pad === 'voice_id' ? 'the default voice' : shown.pad === 'model' ? "the platform's default" : undefined}
            onChange={(event) => edit(event.target.value)}
          />
        )}
        <button type="submit" className="apply" data-testid={`apply-${testId}`} disabled={!connected || !changed || applying}>
          Apply
        </button>
      </div>
      {problem && (
        <p className="pad-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
