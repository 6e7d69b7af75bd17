import { NotFoundError, createClient } from '@palaver/sdk-core';
import { createUsageToken } from '@palaver/sdk-node';

export interface QuickstartOptions {
  baseUrl: string;
  apiKey: string;
  log?: (line: string) => void;
}

/**
 * A tour of the REST API: pick a voice, create a persona and a scenario, open a context with a message,
 * then act as one of your users through a usage token.
 */
export async function quickstart({ baseUrl, apiKey, log = console.log }: QuickstartOptions) {
  const server = createClient({ baseUrl, apiKey });

  const voices = await server.voices.list({ tags: ['engine:flite'] });
  const voice = voices.values[0];
  if (!voice) throw new Error('no Flite voice in the catalog');
  log(`voice: ${voice.name} (${voice.id}), ${voices.total_count} Flite voices`);

  const persona = await server.personas.create({ name: 'Ada', description: 'A patient maths tutor.', voice: voice.id });
  const scenario = await server.scenarios.create({ name: 'Fractions', project: persona.project, prompt: 'Teach adding fractions.' });
  log(`persona ${persona.id}, scenario ${scenario.id}`);

  // Your backend mints a short-lived token for the signed-in user and hands it to the browser.
  const token = await createUsageToken({ baseUrl, apiKey, human: 'user-42', ttlSeconds: 600 });
  const browser = createClient({ baseUrl, usageToken: token });
  const context = await browser.contexts.create({ persona: persona.id, scenario: scenario.id, messages: [{ role: 'user', content: 'What is 1/2 + 1/3?' }] });
  log(`context ${context.id} with ${context.latest_messages.length} message(s), owned by ${context.human}`);

  // Another user's token cannot see it.
  const otherToken = await createUsageToken({ baseUrl, apiKey, human: 'user-43' });
  const other = createClient({ baseUrl, usageToken: otherToken });
  const hidden = await other.contexts.retrieve(context.id).then(
    () => false,
    (error: unknown) => NotFoundError.isInstance(error),
  );
  log(`user-43 sees user-42's context: ${hidden ? 'no' : 'YES (wrong)'}`);

  return { voice, persona, scenario, context, hiddenFromOthers: hidden };
}
