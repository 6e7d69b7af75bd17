import { createClient } from '@palaver/sdk-core';

export interface Choice {
  id: string;
  label: string;
}

/** What the visitor can pick for a call, read from the platform with their usage token. */
export interface Catalog {
  personas: Choice[];
  voices: Choice[];
  llms: Choice[];
  /** LiveKit Agents workers registered with the platform, by agent name (`GET /v1/realtime/agents`). */
  workers: Choice[];
}

const MOST = 50;

async function firstOf<T>(items: AsyncIterable<T>, map: (item: T) => Choice): Promise<Choice[]> {
  const choices: Choice[] = [];
  for await (const item of items) {
    choices.push(map(item));
    if (choices.length >= MOST) break;
  }
  return choices;
}

/** Personas, voices and LLMs the visitor may use (the platform answers what their token can see). */
export async function loadCatalog(platformUrl: string, usageToken: string): Promise<Catalog> {
  const client = createClient({ baseUrl: platformUrl, usageToken, maxRetries: 1 });
  const [personas, voices, llms, agents] = await Promise.all([
    firstOf(client.personas.list(), (persona) => ({ id: persona.id, label: persona.name })),
    firstOf(client.voices.list(), (voice) => ({ id: voice.id, label: voice.name })),
    firstOf(client.llms.list(), (llm) => ({ id: llm.id, label: llm.name })),
    client.realtime.agents(),
  ]);
  const workers = agents.values.flatMap((agent) =>
    agent.type === 'livekit_worker' ? [{ id: agent.agent_name, label: `LiveKit worker: ${agent.agent_name}` }] : [],
  );
  return { personas, voices, llms, workers };
}
