import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '@palaver/sdk-core/server';
import { startVoiceDemo, type VoiceDemo } from './demo-server.js';

describe('the voice demo app backend', () => {
  let platform: Awaited<ReturnType<typeof createServer>>;
  let platformUrl: string;
  let demo: VoiceDemo;

  beforeAll(async () => {
    platform = await createServer({ env: {}, config: { logLevel: 'silent' } });
    platformUrl = await platform.listen(0, '127.0.0.1');
    demo = await startVoiceDemo({ platformUrl, apiKey: platform.apiKey });
  });
  afterAll(async () => {
    await demo.close();
    await platform.close();
  });

  it('serves the page with the platform URL and the bundled app', async () => {
    const html = await (await fetch(demo.url)).text();
    expect(html).toContain(`<meta name="palaver-platform" content="${platformUrl}">`);
    const script = await fetch(new URL('/app.js', demo.url));
    expect(script.headers.get('content-type')).toContain('text/javascript');
    const source = await script.text();
    expect(source.length).toBeGreaterThan(100_000); // React, livekit-client and the connector
    expect(source).not.toContain(platform.apiKey);
    expect(html).not.toContain(platform.apiKey);
  });

  it('mints a usage token per visitor that the platform accepts, never handing out the API key', async () => {
    const answers = await Promise.all([1, 2].map(async () => (await fetch(new URL('/api/session', demo.url), { method: 'POST' })).json()));
    const [first, second] = answers as Array<{ token: string; human: string; llm: string }>;
    expect(first!.human).not.toBe(second!.human);
    // No hosted LLM is configured here: the offline model.
    expect(first!.llm).toBe('builtin-offline');
    expect(JSON.stringify(answers)).not.toContain(platform.apiKey);
    const voices = await fetch(`${platformUrl}/v1/voice/list`, { headers: { authorization: `Bearer ${first!.token}` } });
    expect(voices.status).toBe(200);
    // A usage token cannot call API-key-only routes.
    const speak = await fetch(`${platformUrl}/v1/realtime/nope/speak`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first!.token}`, 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    });
    expect(speak.status).toBe(403);
  });

  it('answers other methods and paths clearly', async () => {
    expect((await fetch(new URL('/api/session', demo.url))).status).toBe(404);
    expect((await fetch(new URL('/missing', demo.url))).status).toBe(404);
    expect((await fetch(demo.url, { method: 'DELETE' })).status).toBe(405);
  });
});
