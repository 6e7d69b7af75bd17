import { useVoiceAgent } from '@palaver/sdk-react';
import { clock } from './words.js';

/** Seconds at which the remaining time turns into a warning (the hook's `remainingSecondsWarningAt`). */
export const WARNING_SECONDS = 60;

/**
 * The call's remaining time; a warning once the hook says time is almost up. It reads only its slice of the session
 * (`useVoiceAgent(selector)`): the rest of the call does not re-render it.
 */
export function TimeLeft() {
  const { seconds, warning } = useVoiceAgent((agent) => ({
    seconds: agent.connectionState === 'not_connected' ? null : agent.remainingSeconds,
    warning: agent.remainingSecondsWarning,
  }));
  if (seconds === null) return null;
  return (
    <p className={warning ? 'time-left warning' : 'time-left'} data-testid="time-left" role={warning ? 'status' : undefined}>
      {warning ? `${clock(seconds)} left: the call ends soon` : `${clock(seconds)} left`}
    </p>
  );
}
