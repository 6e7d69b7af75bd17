import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@palaver/sdk-core';
import { createServer } from '@palaver/sdk-core/server';
import { graphRoles, loadAppGraph } from './app/app-graph.js';
import { layoutGraph } from './app/graph-layout.js';
import type { RunTicket } from './app/run-ticket.js';
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
    const ticket = (await (await fetch(new URL('/api/run', demo.url), { method: 'POST' })).json()) as {
      token: string;
      human: string;
      app: string;
      overrides: unknown[];
    };
    expect(ticket).toMatchObject({ app: demo.app, overrides: [{ node: 'llm', pad: 'model', value: { type: 'string', value: 'builtin-offline' } }] });
    expect(JSON.stringify(ticket)).not.toContain(platform.apiKey);
    const visitor = createClient({ baseUrl: platformUrl, usageToken: ticket.token });
    const run = await visitor.appRuns.create({ app: ticket.app, overrides: ticket.overrides as never });
    expect(run.connection_details.url).toMatch(/^ws/);
    expect(platform.services.appRuns.hosts(run.app_run.id)).toBe(true);
  });

  it("lets the page read, with the visitor's token, the graph a run takes, and draw every node and link of it", async () => {
    const ticket = (await (await fetch(new URL('/api/run', demo.url), { method: 'POST' })).json()) as RunTicket;
    const graph = await loadAppGraph(platformUrl, ticket);
    const stored = await createClient({ baseUrl: platformUrl, apiKey: platform.apiKey }).apps.retrieve(demo.app);
    expect(graph).toMatchObject({ name: DEMO_APP_NAME, version: stored.version });
    expect(graph.nodes.map((node) => node.id)).toEqual([
      'publish',
      'stt',
      'user_message',
      'system_prompt',
      'context',
      'on_user_message',
      'llm',
      'tts',
      'output',
    ]);
    // The ticket's overrides show as the run will hold them.
    expect(graph.nodes.find((node) => node.id === 'llm')!.pads.find((pad) => pad.id === 'model')!.value).toEqual({ type: 'string', value: 'builtin-offline' });
    expect(graphRoles(graph.nodes)).toEqual({
      textEntry: { node: 'user_message', pad: 'content' },
      conversation: { node: 'context', pad: 'source' },
      stt: 'stt',
      llm: 'llm',
      tts: 'tts',
    });

    const links = graph.nodes.flatMap((node) => node.pads.flatMap((pad) => pad.next_pads.map((next) => `${node.id}.${pad.id}->${next.node}.${next.pad}`)));
    for (const width of [1182, 358]) {
      const layout = layoutGraph(graph.nodes, { width });
      expect(layout.orientation).toBe(width > 1000 ? 'across' : 'down');
      expect(layout.width).toBeLessThanOrEqual(width);
      expect(layout.nodes.map((box) => box.id)).toEqual(graph.nodes.map((node) => node.id));
      expect(layout.links.map((link) => `${link.from.node}.${link.from.pad}->${link.to.node}.${link.to.pad}`).sort()).toEqual([...links].sort());
      // The one loop: the LLM's answer goes back into its context.
      expect(layout.links.filter((link) => link.route === 'back').map((link) => `${link.from.node}.${link.from.pad}`)).toEqual(['llm.context_message']);
    }
  });
});
