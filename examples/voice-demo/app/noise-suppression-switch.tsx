import { useVoiceAgent } from '@palaver/sdk-react';

/**
 * Noise suppression of the microphone (RNNoise in the browser), before or during a call: it applies at once. On by
 * default, as in the connector: in a noisy room the agent hears about twice the words, in a quiet one as many
 * (decision 0116).
 */
export function NoiseSuppressionSwitch() {
  const { wanted, active, setNoiseSuppression } = useVoiceAgent((agent) => ({
    wanted: agent.noiseSuppression,
    active: agent.noiseSuppressionActive,
    setNoiseSuppression: agent.setNoiseSuppression,
  }));
  return (
    <label className="start-microphone">
      <input type="checkbox" data-testid="noise-suppression" checked={wanted} onChange={(event) => void setNoiseSuppression(event.target.checked)} />
      <span>
        Noise suppression (for a noisy room)
        {active && (
          <small data-testid="noise-suppression-active" className="muted">
            {' '}
            · on
          </small>
        )}
      </span>
    </label>
  );
}
