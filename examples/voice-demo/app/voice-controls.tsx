import { useVoiceAgent } from '@palaver/sdk-react';

/**
 * Voice and text in one call: the microphone on and off, and the agent's voice on and off (its answers keep coming
 * as text). Reads only these flags of the session (`useVoiceAgent(selector)`).
 */
export function VoiceControls() {
  const { microphoneEnabled, agentSpeechMuted, setMicrophoneEnabled, setAgentSpeechMuted } = useVoiceAgent((agent) => ({
    microphoneEnabled: agent.microphoneEnabled,
    agentSpeechMuted: agent.agentSpeechMuted,
    setMicrophoneEnabled: agent.setMicrophoneEnabled,
    setAgentSpeechMuted: agent.setAgentSpeechMuted,
  }));
  return (
    <>
      <button data-testid="microphone" aria-pressed={!microphoneEnabled} onClick={() => void setMicrophoneEnabled(!microphoneEnabled)}>
        {microphoneEnabled ? 'Microphone off' : 'Microphone on'}
      </button>
      <button data-testid="agent-speech" aria-pressed={agentSpeechMuted} onClick={() => setAgentSpeechMuted(!agentSpeechMuted)}>
        {agentSpeechMuted ? 'Hear the agent' : 'Silence the agent'}
      </button>
    </>
  );
}

/** What the visitor should know about the two switches, under the agent. */
export function VoiceNotes() {
  const { live, microphoneEnabled, agentSpeechMuted } = useVoiceAgent((agent) => ({
    live: agent.connectionState !== 'not_connected',
    microphoneEnabled: agent.microphoneEnabled,
    agentSpeechMuted: agent.agentSpeechMuted,
  }));
  if (!live) return null;
  return (
    <>
      {!microphoneEnabled && (
        <p className="muted" data-testid="muted">
          Your microphone is off. Typing still works.
        </p>
      )}
      {agentSpeechMuted && (
        <p className="muted" data-testid="agent-silenced">
          The agent&apos;s voice is off: its answers appear as text.
        </p>
      )}
    </>
  );
}

/** Before a call: start with the microphone, or text only (the microphone can be turned on during the call). */
export function StartWithMicrophone() {
  const { wanted, setMicrophoneEnabled } = useVoiceAgent((agent) => ({
    wanted: agent.state.microphone.wanted,
    setMicrophoneEnabled: agent.setMicrophoneEnabled,
  }));
  return (
    <label className="start-microphone">
      <input type="checkbox" data-testid="start-microphone" checked={wanted} onChange={(event) => void setMicrophoneEnabled(event.target.checked)} />
      <span>Use my microphone (off: text only)</span>
    </label>
  );
}
