import type { Page } from '@playwright/test';
import { createClient } from '@palaver/sdk-core';
import type { PalaverServer } from '@palaver/sdk-core/server';
import { eventually, expect } from './connector-fixture.js';

/**
 * The connector page joins a session of the built-in agent (offline LLM, no microphone) as `human`, with a usage token
 * as a web app would, and waits until the agent listens. `output` is the session's output config.
 */
export async function joinBuiltInSession(page: Page, server: PalaverServer, human: string, output: object = {}): Promise<void> {
  const client = createClient({ baseUrl: server.url!, apiKey: server.apiKey });
  const { token } = await client.usage.createToken({ human });
  const config = { general: {}, input: {}, output, generative: { llm: 'builtin-offline' } };
  const joined = await page.evaluate(([jwt, url, body]) => window.connector.connect('', jwt, { baseUrl: url, config: body, microphone: false }), [
    token,
    server.url!,
    config,
  ] as const);
  expect(joined.ok).toBe(true);
  await eventually(async () => expect((await page.evaluate(() => window.connector.snapshot())).agentState).toBe('listening'), 30_000);
}
