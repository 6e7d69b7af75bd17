import { useEffect, useState } from 'react';
import type { AppRun } from '@palaver/sdk-core/realtime';
import type { GraphRoles } from './app-graph.js';

/** What the graph is doing, as far as its pads tell. */
export type RunActivity = 'listening' | 'hearing' | 'thinking' | 'speaking';

/** The next activity after a pad fired, or undefined when that pad says nothing new. */
export function nextActivity(current: RunActivity, roles: Pick<GraphRoles, 'stt' | 'llm' | 'tts'>, node: string, pad: string): RunActivity | undefined {
  if (node === roles.stt && pad === 'speech_started') return 'hearing';
  if (node === roles.stt && pad === 'speech_ended') return current === 'hearing' ? 'listening' : undefined;
  if (node === roles.llm && pad === 'started') return 'thinking';
  if (node === roles.llm && pad === 'first_token') return 'speaking';
  // Without a TTS the answer is done when the LLM finishes; with one, once it has been spoken.
  if (node === roles.llm && pad === 'finished') return roles.tts ? undefined : 'listening';
  if (node === roles.tts && pad === 'complete_transcription') return current === 'speaking' ? 'listening' : undefined;
  return undefined;
}

const WATCHED: Array<['stt' | 'llm' | 'tts', string]> = [
  ['stt', 'speech_started'],
  ['stt', 'speech_ended'],
  ['llm', 'started'],
  ['llm', 'first_token'],
  ['llm', 'finished'],
  ['tts', 'complete_transcription'],
];

/** The run's audio louder than this (0..1) is the answer being heard. */
const AUDIBLE = 0.02;
const LISTEN_EVERY_MS = 150;
/** Quiet readings in a row before the answer counts as over: the pauses between clauses are not its end. */
const QUIET_READINGS = 4;

/**
 * Whether the run's audio (its Output node) can be heard now. The TTS says it is done once it has sent
 * the last audio, while the browser still plays what it buffered: until then the page says `speaking`.
 */
function useAudibleAnswer(run: AppRun, connected: boolean): boolean {
  const [audible, setAudible] = useState(false);
  useEffect(() => {
    if (!connected) return;
    let quiet = QUIET_READINGS;
    const timer = setInterval(() => {
      quiet = run.getAudioLevels().agent > AUDIBLE ? 0 : quiet + 1;
      setAudible(quiet < QUIET_READINGS);
    }, LISTEN_EVERY_MS);
    return () => {
      clearInterval(timer);
      setAudible(false);
    };
  }, [run, connected]);
  return connected && audible;
}

/**
 * Follows the STT's, LLM's and TTS's event pads of the run (speech started and ended, the answer started,
 * its first token, spoken) and says what the graph is doing; `speaking` while its answer is still heard,
 * `listening` again on every new connection.
 */
export function useRunActivity(run: AppRun, roles: GraphRoles | undefined, connected: boolean): RunActivity {
  const [activity, setActivity] = useState<RunActivity>('listening');
  const audible = useAudibleAnswer(run, connected);
  useEffect(() => {
    const joined = (status: string) => {
      if (status === 'connected') setActivity('listening');
    };
    run.on('statusChanged', joined);
    return () => {
      run.off('statusChanged', joined);
    };
  }, [run]);
  useEffect(() => {
    if (!roles) return;
    const unsubscribe = WATCHED.flatMap(([role, pad]) => (roles[role] ? [run.subscribePad(roles[role], pad)] : []));
    const onValue = (node: string, pad: string) => setActivity((current) => nextActivity(current, roles, node, pad) ?? current);
    run.on('value', onValue);
    return () => {
      run.off('value', onValue);
      for (const stop of unsubscribe) stop();
    };
  }, [run, roles]);
  return activity === 'listening' && audible ? 'speaking' : activity;
}
