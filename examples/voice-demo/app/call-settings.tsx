import type { Catalog } from './platform-catalog.js';

export interface CallChoices {
  persona: string;
  voice: string;
  llm: string;
  /** A LiveKit Agents worker's agent name; empty for Palaver's voice agent. */
  worker: string;
  /** Record both sides of the call (Palaver's voice agent only); downloadable once it ended. */
  record: boolean;
}

function Picker({
  label,
  value,
  options,
  empty,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  value: string;
  options: Catalog['voices'];
  empty: string;
  onChange: (value: string) => void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <label className="picker">
      <span>{label}</span>
      <select data-testid={testId} value={value} onChange={(event) => onChange(event.target.value)} disabled={disabled}>
        <option value="">{empty}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Who the agent is for the next call: Palaver's voice agent (persona, voice and LLM, filled from the platform) or,
 * when one is registered, a LiveKit Agents worker's agent, which brings its own behaviour.
 */
export function CallSettings({
  catalog,
  choices,
  onChange,
  disabled,
}: {
  catalog: Catalog | undefined;
  choices: CallChoices;
  onChange: (choices: CallChoices) => void;
  disabled: boolean;
}) {
  const ownAgent = disabled || choices.worker !== '';
  return (
    <fieldset className="settings" disabled={disabled || !catalog}>
      <legend>The agent</legend>
      {(catalog?.workers.length ?? 0) > 0 && (
        <Picker
          testId="agent"
          label="Agent"
          value={choices.worker}
          options={catalog!.workers}
          empty="Palaver's voice agent"
          disabled={disabled}
          onChange={(worker) => onChange({ ...choices, worker })}
        />
      )}
      <Picker
        testId="persona"
        label="Persona"
        value={choices.persona}
        options={catalog?.personas ?? []}
        empty="No persona"
        disabled={ownAgent}
        onChange={(persona) => onChange({ ...choices, persona })}
      />
      <Picker
        testId="voice"
        label="Voice"
        value={choices.voice}
        options={catalog?.voices ?? []}
        empty={choices.persona ? "The persona's voice" : 'Default voice'}
        disabled={ownAgent}
        onChange={(voice) => onChange({ ...choices, voice })}
      />
      <Picker
        testId="llm"
        label="Model"
        value={choices.llm}
        options={(catalog?.llms ?? []).filter((llm) => llm.id !== '')}
        empty="Suggested"
        disabled={ownAgent}
        onChange={(llm) => onChange({ ...choices, llm })}
      />
      <label className="start-microphone">
        <input
          type="checkbox"
          data-testid="record"
          checked={choices.record}
          disabled={disabled}
          onChange={(event) => onChange({ ...choices, record: event.target.checked })}
        />
        <span>Record the call (both sides, to download after it)</span>
      </label>
    </fieldset>
  );
}
