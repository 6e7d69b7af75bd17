import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@palaver/sdk-core';
import { createServer } from '@palaver/sdk-core/server';
import { DEMO_APP_NAME, startAppRunDemo, type AppRunDemo } from './demo-server.js';

describe('the app run demo backend', () => {
  let platform: Awaited<ReturnType<typeof createServer>>;
  let platformUrl: string;
  let demo: AppRunDemo;

  beforeAll(async () => {
    platform = await createServer({ env: {}, config: { logLevel: 'silent' } });
    platformUrl = await platform.listen(0, '127.0.0.1');
    demo = await startAppRunDemo({ platformUrl, apiKey: platform.apiKey });
  });
  afterAll(async () => {
    await demo.close();
    await platform.close();
  });

  it('applies the Simple Voice AI template once: a second start reuses the app', async () => {
    const again = await startAppRunDemo({ platformUrl, apiKey: platform.apiKey });
    await again.close();
    expect(again.app).toBe(demo.app);
    const apps = await createClient({ baseUrl: platformUrl, apiKey: platform.apiKey }).apps.list();
    expect(apps.filter((app) => app.name === DEMO_APP_NAME).map((app) => app.id)).toEqual([demo.app]);
  });

  it('serves the page with the platform URL and the bundled app, never the API key', async () => {
    const html = await (await fetch(demo.url)).text();
    expect(html).toContain(`<meta name="palaver-platform" content="${platformUrl}">`);
    const source = await (await fetch(new URL('/app.js', demo.url))).text();
    expect(source.length).toBeGreaterThan(100_000);
    expect(source + html).not.toContain(platform.apiKey);
  });

  it('hands each visitor a usage token with which the browser creates the run itself', async () => {
    const ticket = (await (await fetch(new URL('/api/run', demo.url), { method: 'POST' })).json()) as { token: string; human: string; app: string; overrides: unknown[] };
    expect(ticket).toMatchObject({ app: demo.app, overrides: [{ node: 'llm', pad: 'model', value: { type: 'string', value: 'builtin-offline' } }] });
    expect(JSON.stringify(ticket)).not.toContain(platform.apiKey);
    const visitor = createClient({ baseUrl: platformUrl, usageToken: ticket.token });
    const run = await visitor.appRuns.create({ app: ticket.app, overrides: ticket.overrides as never });
    expect(run.connection_details.url).toMatch(/^ws/);
    expect(platform.services.appRuns.hosts(run.app_run.id)).toBe(true);
  });
});
