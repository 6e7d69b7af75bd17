import type { AppRunState, RealtimeEnd } from '@palaver/sdk-core/realtime';
import type { RunActivity } from './run-activity.js';

/** The run's state, as a visitor reads it: where the connection is, then what the graph is doing. */
export function runWords(state: Pick<AppRunState, 'status' | 'starting' | 'ended'>, activity: RunActivity): string {
  switch (state.status) {
    case 'not_connected':
      return state.ended ? 'Not running' : 'Ready to start';
    case 'connecting':
      return state.starting ? 'Starting the app…' : 'Connecting…';
    case 'reconnecting':
      return 'Reconnecting…';
    case 'waiting_for_agent':
      return 'Waiting for the app to join…';
    case 'connected':
      return activityWords[activity];
  }
}

const activityWords: Record<RunActivity, string> = {
  listening: 'Listening',
  hearing: 'Hearing you…',
  thinking: 'Thinking…',
  speaking: 'Speaking',
};

/** Why the last run ended, in words. */
export function endWords(ended: RealtimeEnd): string {
  switch (ended.reason) {
    case 'client':
      return 'The run ended: you left.';
    case 'session_ended':
      return 'The run ended: the app stopped it.';
    case 'time_limit_exceeded':
      return 'The run ended: it reached its time limit.';
    case 'usage_limit_exceeded':
      return 'The run ended: your usage allowance is used up for now.';
    case 'agent_unavailable':
      return 'The run ended: the app did not join. Try again in a moment.';
    case 'removed':
      return 'The run ended: it was opened somewhere else.';
    case 'connection_lost':
      return 'The run ended: the connection dropped and could not be restored.';
    case 'failed':
      return 'The run could not start.';
  }
}

/** An error, in words: what happened and what to do, not a stack. */
export function problemWords(error: Error | undefined): string | undefined {
  if (!error) return undefined;
  switch ((error as { reason?: string }).reason) {
    case 'network':
    case 'server_unreachable':
      return 'The platform could not be reached. Is it still running?';
    case 'unauthorized':
      return 'The platform refused this visit (the usage token was not accepted). Reload the page to get a new one.';
    case 'media_failed':
      return 'This browser could not open the audio connection (WebRTC).';
    case 'agent_unavailable':
      return 'The app did not join the run.';
    case 'closed':
      return 'The run is not connected any more.';
    default:
      break;
  }
  if (error.name === 'AuthenticationError') return 'The platform refused this visit (the usage token was not accepted). Reload the page to get a new one.';
  // The browser's media errors; the platform's answers (which carry a status) say what they mean themselves.
  const fromBrowser = !('status' in error);
  if (fromBrowser && (error.name === 'NotAllowedError' || /permission/i.test(error.message)))
    return 'The microphone is blocked. Allow it in the address bar, or type your messages.';
  if (fromBrowser && error.name === 'NotFoundError') return 'No microphone was found. You can still type your messages.';
  return error.message.charAt(0).toUpperCase() + error.message.slice(1);
}
