import { clock } from './words.js';

/** Seconds at which the remaining time turns into a warning. */
export const WARNING_SECONDS = 60;

/** The call's remaining time; a warning in its last minute. */
export function TimeLeft({ seconds }: { seconds: number | null }) {
  if (seconds === null) return null;
  const warning = seconds <= WARNING_SECONDS;
  return (
    <p className={warning ? 'time-left warning' : 'time-left'} data-testid="time-left" role={warning ? 'status' : undefined}>
      {warning ? `${clock(seconds)} left: the call ends soon` : `${clock(seconds)} left`}
    </p>
  );
}
