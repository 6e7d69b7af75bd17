import type { RealtimeEnd, SDKAgentState, SDKConnectionState } from '@palaver/sdk-core/realtime';

/** The call's state, as a sentence fragment a visitor reads. */
export function callWords(connection: SDKConnectionState, agent: SDKAgentState | undefined): string {
  switch (connection) {
    case 'not_connected':
      return 'Not in a call';
    case 'connecting':
      return 'Connecting…';
    case 'waiting_for_agent':
      return 'Waiting for the agent to join…';
    case 'resuming':
      return 'Connection lost, reconnecting…';
    case 'connected':
      return agent ? agentWords[agent] : 'The agent is joining…';
  }
}

const agentWords: Record<SDKAgentState, string> = {
  warmup: 'Getting ready…',
  listening: 'Listening',
  thinking: 'Thinking…',
  speaking: 'Speaking',
  time_limit_exceeded: 'Time is up',
  usage_limit_exceeded: 'Usage limit reached',
};

/** Why the last call ended, in words. */
export function endWords(ended: RealtimeEnd): string {
  switch (ended.reason) {
    case 'client':
      return 'You hung up.';
    case 'session_ended':
      return 'The agent ended the call.';
    case 'time_limit_exceeded':
      return 'The call reached its time limit.';
    case 'usage_limit_exceeded':
      return 'Your usage allowance is used up for now.';
    case 'agent_unavailable':
      return 'The agent did not join. Try again in a moment.';
    case 'removed':
      return 'The call was opened somewhere else, so this one was closed.';
    case 'connection_lost':
      return 'The connection dropped and could not be restored.';
    case 'failed':
      return 'The call could not start.';
  }
}

/** An error, in words: what happened and what to do, not a stack. */
export function problemWords(error: Error | undefined): string | undefined {
  if (!error) return undefined;
  const reason = (error as { reason?: string }).reason;
  switch (reason) {
    case 'network':
    case 'server_unreachable':
      return 'The platform could not be reached. Is it still running?';
    case 'unauthorized':
      return 'The platform refused this visit (the usage token was not accepted). Reload the page to get a new one.';
    case 'media_failed':
      return 'This browser could not open the audio connection (WebRTC).';
    case 'agent_unavailable':
      return 'The agent is not available right now.';
    default:
      break;
  }
  if (error.name === 'NotAllowedError' || /permission/i.test(error.message))
    return 'The microphone is blocked. Allow it in the address bar, or type your messages.';
  if (error.name === 'NotFoundError') return 'No microphone was found. You can still type your messages.';
  return error.message.charAt(0).toUpperCase() + error.message.slice(1);
}

/** `272` -> `4:32`. */
export function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
