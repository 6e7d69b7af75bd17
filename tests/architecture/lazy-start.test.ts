import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const support = join(dirname(fileURLToPath(import.meta.url)), 'support');

it('starting the platform and answering REST requests loads no WebRTC, websocket server, JWT library, pretty printer or wasm resampler: each comes with its first use', () => {
  const child = spawnSync(
    process.execPath,
    ['--import', join(support, 'register-import-recorder.mjs'), '--import', 'tsx', join(support, 'rest-only-start.ts')],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(child.stdout).toContain('STATUS 200');
  const imported = child.stderr.split('\n').flatMap((line) => (line.startsWith('IMPORT ') ? [line.slice('IMPORT '.length)] : []));
  // The recorder works: the platform's own dependencies show up.
  expect(imported).toEqual(expect.arrayContaining(['hono', 'kysely']));
  // werift (~360 ms) with the first media join, livekit-server-sdk (~160 ms) with the first join token, libsamplerate
  // (~100 ms) with the first high-quality resampling, ws (~70 ms) with the first websocket, jose (~60 ms) with the first
  // usage token, pino-pretty (~50 ms) only for readable logs.
  const lazy = /^(werift|@peculiar\/x509|@fidm\/x509|livekit-server-sdk|@alexanderolsen\/libsamplerate-js|ws|jose|pino-pretty)$/;
  expect(imported.filter((name) => lazy.test(name))).toEqual([]);
}, 90_000);
