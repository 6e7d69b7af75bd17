import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const main = resolve(dirname(fileURLToPath(import.meta.url)), 'main.ts');
const running: ChildProcess[] = [];

function palaver(args: string[], environment: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', main, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...environment } });
}

/** Starts `palaver serve` and resolves with its printed URL and key once it listens. */
function serve(args: string[], environment: Record<string, string> = {}): Promise<{ url: string; apiKey: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'serve', ...args], { env: { ...process.env, PALAVER_LOG_LEVEL: 'warn', ...environment } });
  running.push(child);
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 45_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
      const apiKey = /Dev API key:\s+(\S+)/.exec(output)?.[1];
      if (url && apiKey) {
        clearTimeout(timer);
        resolvePromise({ url, apiKey });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

afterAll(() => {
  for (const child of running) child.kill('SIGTERM');
});

describe('palaver CLI', () => {
  it('--version and -v print the version of @palaver/sdk-node', () => {
    const { version } = JSON.parse(readFileSync(resolve(dirname(main), '../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const result = palaver([flag]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it('serve prints the URL and the dev key, honours --port and PALAVER_API_KEY, and token mints a working usage token', async () => {
    const apiKey = 'pk_cli_test_key_0123456789abcdef';
    const { url, apiKey: printed } = await serve(['--port', '0'], { PALAVER_API_KEY: apiKey });
    expect(printed).toBe(apiKey);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const token = palaver(['token', '--human', 'cli-user', '--ttl', '120', '--url', url, '--api-key', apiKey]);
    expect(token.status, token.stderr).toBe(0);
    const jwt = token.stdout.trim();
    // The JWT's exp is the TTL asked for.
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(120);
    const check = await fetch(`${url}/v1/voice/list`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(check.status).toBe(200);
    // PALAVER_URL instead of --url.
    const fromEnvironment = palaver(['token', '--human', 'cli-user', '--api-key', apiKey], { PALAVER_URL: url });
    expect(fromEnvironment.status, fromEnvironment.stderr).toBe(0);
  }, 90_000);

  it('token names the URL it could not reach, in one line', () => {
    const refused = palaver(['token', '--human', 'cli-user', '--api-key', 'pk_x'], { PALAVER_URL: 'http://127.0.0.1:59999' });
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^palaver: Could not reach the platform at http:\/\/127\.0\.0\.1:59999 \(ECONNREFUSED\).*PALAVER_URL$/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a file database keeps the generated dev key across restarts; keys lists, creates and revokes', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'palaver-cli-'));
    try {
      const database = join(folder, 'palaver.db');
      const first = palaver(['keys', 'list', '--database', database]);
      expect(first.status, first.stderr).toBe(0);
      const devKey = /dev key: (\S+)/.exec(first.stdout)?.[1];
      expect(devKey).toMatch(/^pk_/);
      const created = palaver(['keys', 'create', '--name', 'ci', '--database', database]);
      expect(created.status, created.stderr).toBe(0);
      const [keyId, key] = created.stdout.trim().split('\t');
      expect(key).toMatch(/^pk_/);
      const { url, apiKey } = await serve(['--port', '0', '--database', database]);
      expect(apiKey).toBe(devKey);
      expect((await fetch(`${url}/v1/persona/list`, { headers: { 'x-api-key': key! } })).status).toBe(200);
      const revoked = palaver(['keys', 'revoke', keyId!, '--database', database]);
      expect(revoked.status, revoked.stderr).toBe(0);
      // The running server trusts a key it verified for 1 s (decision 0062); the CLI, another process without the
      // server's bus, may revoke it within that time: it is refused once that time has passed (when, on a fake clock:
      // packages/sdk-core/tests/contract/multi-instance.test.ts). Waited for here, not timed.
      const deadline = performance.now() + 20_000;
      let status = 0;
      while (performance.now() < deadline) {
        status = (await fetch(`${url}/v1/persona/list`, { headers: { 'x-api-key': key! } })).status;
        if (status !== 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(401);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('a bad configuration value stops start-up with a message naming the variable', () => {
    const result = palaver(['serve'], { PORT: 'not-a-port' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('PORT');
  });
});
