import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const core = resolve(root, 'packages/sdk-core');

it('sdk-core builds (ESM + declarations) and the built server and client work in plain Node', () => {
  const build = spawnSync(process.execPath, [resolve(root, 'node_modules/tsup/dist/cli-default.js')], { cwd: core, encoding: 'utf8', timeout: 280_000 });
  expect(build.status, build.stdout + build.stderr).toBe(0);
  for (const entry of ['index', 'realtime', 'tts', 'openai', 'server', 'testing']) {
    expect(existsSync(resolve(core, `dist/${entry}.js`)), `dist/${entry}.js`).toBe(true);
    expect(existsSync(resolve(core, `dist/${entry}.d.ts`)), `dist/${entry}.d.ts`).toBe(true);
  }
  // Plain Node, no TypeScript loader: what a user of the published package runs.
  const script = `
    const { createServer } = await import(${JSON.stringify(resolve(core, 'dist/server.js'))});
    const { createClient } = await import(${JSON.stringify(resolve(core, 'dist/index.js'))});
    const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
    const client = createClient({ apiKey: server.apiKey, fetch: server.fetch });
    const voices = await client.voices.list();
    const completion = await client.chat.completions.create({ model: 'builtin-offline', messages: [{ role: 'user', content: 'hi' }] });
    console.log(JSON.stringify({ voices: voices.total_count, reply: completion.choices[0].message.content.length > 0 }));
    await server.close();
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: core, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { voices: number; reply: boolean };
  expect(result.voices).toBeGreaterThan(0);
  expect(result.reply).toBe(true);
}, 300_000);
