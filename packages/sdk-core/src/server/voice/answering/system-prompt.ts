import type { RealtimeSessionConfig } from '../../../contract/realtime.js';

/** How the agent talks, whoever it plays: its words are heard, not read. */
const SPOKEN_STYLE =
  'You are in a live voice conversation: everything you write is spoken aloud by a speech synthesizer. ' +
  'Answer briefly and naturally, usually in one to three short sentences. Do not use lists, markdown, code, ' +
  'emoji or URLs; spell out what should be said. If you did not understand the person, ask them to repeat.';

/**
 * The system prompt of a session: who the agent is (the persona's name and description), what the
 * conversation is about (the scenario's prompt, which the agent follows), and the spoken style.
 *
 * @example
 * const prompt = buildSystemPrompt(session.config.generative);
 * const messages = [{ role: 'system', content: prompt }, ...history];
 */
export function buildSystemPrompt(generative: Pick<RealtimeSessionConfig['generative'], 'persona' | 'scenario'>): string {
  const parts: string[] = [];
  const persona = generative.persona;
  if (persona) {
    const description = persona.description.trim();
    parts.push(`You are ${persona.name}.${description ? ` ${description}` : ''}`);
  } else {
    parts.push('You are a helpful voice assistant.');
  }
  const scenario = generative.scenario;
  if (scenario && scenario.prompt.trim()) {
    parts.push(`Scenario "${scenario.name}". Follow these instructions for the conversation:\n${scenario.prompt.trim()}`);
  }
  parts.push(SPOKEN_STYLE);
  return parts.join('\n\n');
}
