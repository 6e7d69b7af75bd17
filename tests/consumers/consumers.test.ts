import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { wavFile } from '@palaver/sdk-core/testing';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireComponent } from '../../packages/sdk-core/tests/support/components.js';
import { consumerEnvironment, npmProject, repositoryRoot, run, start, stop } from './support/commands.js';
import { packageFindings } from './support/package-checks.js';
import { installedManifest, manifestTargets, packWorkspace, PACKAGES, tarballContents, type PackedPackages } from './support/packed-packages.js';
import { filesMatching, folderBytes, gzippedScripts, kilobytes, megabytes, serveStatic } from './support/static-site.js';

/**
 * The packages as people outside this repository get them: built and packed like a release, installed with npm
 * into empty folders, used from a Vite + React app in Chromium, a CommonJS script and an ESM backend.
 */

const CHROMIUM = '/usr/bin/chromium';
const chromiumAvailable = requireComponent('Chromium', existsSync(CHROMIUM), `${CHROMIUM} not found (apt-get install chromium)`);

let packed: PackedPackages;
/** The Node backend's folder: @palaver/sdk-node (which brings the server) and @palaver/sdk-core from tarballs. */
let backend: string;
/** The running platform, started by the backend's ESM script from the installed packages. */
let platform: { child: ChildProcess; url: string; token: string } | undefined;

const overrides = () => ({ '@palaver/sdk-core': `file:${packed.tarballs['sdk-core']}` });

describe('packages installed from tarballs, outside the workspace', () => {
  beforeAll(() => {
    packed = packWorkspace();
  }, 400_000);
  afterAll(async () => {
    if (platform) await stop(platform.child);
    rmSync(packed?.directory ?? '', { recursive: true, force: true });
  });

  it('every packed package.json points only at files in dist (or bin) that the tarball holds', () => {
    for (const folder of PACKAGES) {
      const { files, manifest } = tarballContents(packed.tarballs[folder]);
      for (const target of manifestTargets(manifest)) {
        if (target === './package.json') continue;
        expect(target, `${folder}: ${target}`).toMatch(/^\.\/(dist|bin)\//);
        expect(files, `${folder}: ${target} is not in the tarball`).toContain(target.slice(2));
      }
      for (const field of ['license', 'repository', 'engines', 'sideEffects', 'files', 'main', 'module', 'types'])
        expect(manifest[field], `${folder}: ${field}`).toBeDefined();
      expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
      expect(JSON.stringify(manifest), `${folder} still names a workspace protocol`).not.toContain('workspace:');
    }
  });

  it('publint and Are the Types Wrong find nothing: every entry resolves with its types under node16 (CommonJS and ESM) and bundler (also `pnpm check:packages`)', async () => {
    // ./testing is ESM only by design; support/package-checks.ts lists that one allowed finding with its reason.
    expect(await packageFindings(packed.tarballs)).toEqual([]);
  }, 120_000);

  it('a Node backend (ESM) with @palaver/sdk-node: createServer() from @palaver/sdk-core/server starts with embedded defaults and answers', async () => {
    backend = npmProject({
      fixture: 'node-backend',
      dependencies: { '@palaver/sdk-node': `file:${packed.tarballs['sdk-node']}`, '@palaver/sdk-core': `file:${packed.tarballs['sdk-core']}` },
      overrides: overrides(),
    });
    // The published declarations, as a TypeScript backend sees them (Node16 resolution, ESM and CommonJS files).
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-dev', 'typescript@~5.9.3', '@types/node@^20'], backend, 300_000);
    run('npx', ['tsc', '-p', '.'], backend, 120_000);

    // Engines load when createServer runs, not on import (the eager import took ~1,800 ms; the import's time against a
    // baseline: `pnpm bench package-import`): importing the entry loads none of the platform's packages.
    const packagesLoadedBy = (script: string) => {
      const recorder = join(repositoryRoot, 'tests/architecture/support/register-import-recorder.mjs');
      const child = spawnSync('node', ['--import', recorder, '--input-type=module', '-e', script], {
        cwd: backend,
        encoding: 'utf8',
        timeout: 120_000,
        env: consumerEnvironment,
      });
      expect(child.status, child.stderr).toBe(0);
      return child.stderr.split('\n').flatMap((line) => (line.startsWith('IMPORT ') ? [line.slice('IMPORT '.length)] : []));
    };
    const platformPackages = ['hono', '@hono/node-server', 'pino', 'prom-client', 'better-sqlite3'];
    const onImport = packagesLoadedBy("await import('@palaver/sdk-core/server');");
    expect(onImport.filter((name) => platformPackages.includes(name))).toEqual([]);
    // The recorder sees them once the platform is created.
    const onCreate = packagesLoadedBy(
      "const { createServer } = await import('@palaver/sdk-core/server'); const server = await createServer({ env: {}, config: { logLevel: 'silent' } }); await server.close();",
    );
    expect(onCreate).toEqual(expect.arrayContaining(platformPackages));

    const started = await start('node', ['platform.mjs'], backend, /^\{"url"/, 90_000);
    const result = JSON.parse(started.line) as { url: string; health: number; voices: number; token: string; startMs: number };
    platform = { child: started.child, url: result.url, token: result.token };
    console.log(`createServer() + listen() from the installed package: ${result.startMs} ms`);
    expect(result.health).toBe(200);
    expect(result.voices).toBeGreaterThan(0);
    expect(result.token.split('.')).toHaveLength(3);
  }, 700_000);

  it("the Node backend serves Scalar's reference at /docs from the bundle @palaver/sdk-node ships, without installing @scalar/api-reference", async () => {
    expect(platform, 'the platform from the backend test').toBeDefined();
    // Only the one file (gzipped, Scalar's version in its name) in sdk-node's build, none of Scalar's packages.
    const shipped = filesMatching(join(backend, 'node_modules'), /^scalar-api-reference-.*\.js\.gz$/).map((file) => file.slice(backend.length + 1));
    expect(shipped).toEqual([expect.stringMatching(/^node_modules\/@palaver\/sdk-node\/dist\/assets\/scalar\/scalar-api-reference-\d+\.\d+\.\d+\.js\.gz$/)]);
    expect(existsSync(join(backend, 'node_modules/@scalar')), '@scalar packages installed').toBe(false);
    expect(tarballContents(packed.tarballs['sdk-node']).files).toContain('THIRD_PARTY_LICENSES.md');
    const version = /scalar-api-reference-(.+)\.js\.gz$/.exec(shipped[0]!)![1]!;
    console.log(`backend install (@palaver/sdk-node + @palaver/sdk-core): ${megabytes(folderBytes(join(backend, 'node_modules')))}`);

    const page = await fetch(`${platform!.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="palaver-reference-config"');
    expect(html).toContain(`<script src="/docs/assets/scalar-api-reference-${version}.js"></script>`);
    for (const encoding of ['gzip', 'identity']) {
      const script = await fetch(`${platform!.url}/docs/assets/scalar-api-reference-${version}.js`, { headers: { 'accept-encoding': encoding } });
      expect(script.status, encoding).toBe(200);
      expect(script.headers.get('content-type'), encoding).toBe('text/javascript; charset=utf-8');
      expect(script.headers.get('content-encoding') ?? 'identity', encoding).toBe(encoding);
      expect(await script.text(), encoding).toContain('createApiReference');
    }
  }, 60_000);

  it('a CommonJS script: require("@palaver/sdk-node") mints a usage token and verifies a webhook; require("@palaver/sdk-core") gives createClient; require("@palaver/sdk-core/graph") the node catalogue', () => {
    const result = JSON.parse(run('node', ['check.cjs'], backend, 120_000).trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result).toEqual({
      token: true,
      voices: expect.any(Number),
      verifiedType: 'realtime_session.state_changed',
      forgedRefused: true,
      createClient: 'function',
      sttPads: 9,
    });
    expect(result.voices as number).toBeGreaterThan(0);
  }, 180_000);

  it('the palaver bin from the tarball prints its version and starts the platform', async () => {
    expect(run(join(backend, 'node_modules/.bin/palaver'), ['--version'], backend).trim()).toBe(tarballContents(packed.tarballs['sdk-node']).manifest.version);
    const served = await start(
      join(backend, 'node_modules/.bin/palaver'),
      ['serve', '--port', '0', '--host', '127.0.0.1'],
      backend,
      /Palaver is running at/,
      90_000,
    );
    try {
      const url = /running at (\S+)/.exec(served.line)![1]!;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect(served.output()).toMatch(/Dev API key: +pk_/);
    } finally {
      await stop(served.child);
    }
  }, 120_000);

  it.runIf(chromiumAvailable)(
    'a Vite + React web app with @palaver/sdk-react: builds without any server package, and its page joins a session and hears the greeting, then runs an app',
    async () => {
      expect(platform, 'the platform from the backend test').toBeDefined();
      const web = npmProject({
        fixture: 'web-app',
        dependencies: {
          '@palaver/sdk-react': `file:${packed.tarballs['sdk-react']}`,
          '@palaver/sdk-core': `file:${packed.tarballs['sdk-core']}`,
          react: '^19.0.0',
          'react-dom': '^19.0.0',
        },
        overrides: overrides(),
      });
      const installed = folderBytes(join(web, 'node_modules'));
      const reactBytes = folderBytes(join(web, 'node_modules/react')) + folderBytes(join(web, 'node_modules/react-dom'));
      console.log(`web app install (@palaver/sdk-react + react): ${megabytes(installed)}; without react and react-dom: ${megabytes(installed - reactBytes)}`);

      expect(filesMatching(join(web, 'node_modules'), /\.node$/), 'native addons').toEqual([]);
      // None of the server's packages: sdk-core's optional peers, unless a browser dependency needs one itself.
      const core = installedManifest(web, '@palaver/sdk-core');
      const neededByBrowserDependencies = new Set(
        Object.keys(core.dependencies ?? {}).flatMap((name) => {
          const dependency = installedManifest(web, name);
          return [...Object.keys(dependency.dependencies ?? {}), ...Object.keys(dependency.peerDependencies ?? {})];
        }),
      );
      const serverOnly = Object.keys(core.peerDependencies ?? {}).filter((name) => !neededByBrowserDependencies.has(name));
      expect(serverOnly.length).toBeGreaterThan(20);
      expect(
        serverOnly.filter((name) => existsSync(join(web, 'node_modules', name))),
        'server packages in a web app',
      ).toEqual([]);
      expect(existsSync(join(web, 'node_modules/@palaver/sdk-node'))).toBe(false);
      // Nor Scalar's reference (decision 0086): its bundle comes with sdk-node only.
      expect(existsSync(join(web, 'node_modules/@scalar')), '@scalar packages in a web app').toBe(false);
      expect(filesMatching(join(web, 'node_modules'), /scalar-api-reference/), "Scalar's bundle in a web app").toEqual([]);
      // The server entry, imported by mistake in a web app's Node tooling, says what to install.
      const misuse = spawnSync('node', ['--input-type=module', '-e', "await import('@palaver/sdk-core/server')"], {
        cwd: web,
        encoding: 'utf8',
        env: consumerEnvironment,
      });
      expect(misuse.status).not.toBe(0);
      expect(misuse.stderr).toMatch(
        /@palaver\/sdk-core\/server needs the platform's server packages, which come with @palaver\/sdk-node: run `npm install @palaver\/sdk-node`/,
      );

      run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          '--save-dev',
          'vite@^6.4.0',
          'typescript@~5.9.3',
          '@types/react@^19',
          '@types/react-dom@^19',
        ],
        web,
        300_000,
      );
      run('npx', ['tsc', '-p', '.'], web, 120_000); // the app against the published declarations (strict)
      run('npx', ['vite', 'build'], web, 300_000);
      const scripts = gzippedScripts(join(web, 'dist'));
      for (const script of scripts) console.log(`web app bundle ${script.file}: ${kilobytes(script.bytes)}, ${kilobytes(script.gzipped)} gzipped`);
      expect(scripts.length).toBeGreaterThan(0);

      const site = await serveStatic(join(web, 'dist'));
      const microphone = join(mkdtempSync(join(tmpdir(), 'palaver-microphone-')), 'silence.wav');
      writeFileSync(microphone, wavFile(new Int16Array(48_000), 48_000));
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--use-fake-ui-for-media-stream',
          '--use-fake-device-for-media-stream',
          `--use-file-for-fake-audio-capture=${microphone}`,
          '--autoplay-policy=no-user-gesture-required',
        ],
      });
      try {
        const page = await browser.newPage();
        await page.goto(`${site.url}?platform=${encodeURIComponent(platform!.url)}&token=${encodeURIComponent(platform!.token)}`);
        await expect.poll(() => page.getByTestId('voices').textContent(), { timeout: 15_000 }).toMatch(/^[1-9]\d*$/);
        await page.getByTestId('call').click();
        await expect.poll(() => page.getByTestId('connection').textContent(), { timeout: 30_000 }).toBe('connected');
        await expect.poll(() => page.getByTestId('agent-line').allTextContents(), { timeout: 30_000 }).toContain('Hello from the packaged agent.');
        // The greeting is heard, not only shown: the agent's track played audio in the page.
        await expect.poll(async () => Number(await page.getByTestId('loudest').textContent()), { timeout: 20_000 }).toBeGreaterThan(0.02);
        // An app run from the packed build: created with the usage token, the microphone on the Publish node it names.
        await page.getByTestId('run-app').click();
        await expect.poll(() => page.getByTestId('app-run-connection').textContent(), { timeout: 30_000 }).toBe('connected');
        await expect.poll(() => page.getByTestId('audio-enabled').textContent(), { timeout: 20_000 }).toBe('true');
        await page.screenshot({ path: join(web, 'consumer-app.png') });
      } finally {
        await browser.close();
        await site.close();
        rmSync(web, { recursive: true, force: true });
      }
    },
    900_000,
  );
  it('without the engines only some deployments use, the platform starts with its fallbacks and names the package to install', () => {
    for (const engine of ['onnxruntime-node', 'koffi', 'pg']) rmSync(join(backend, 'node_modules', engine), { recursive: true, force: true });
    const result = JSON.parse(run('node', ['fallbacks.mjs'], backend, 120_000).trim().split('\n').at(-1)!) as {
      sessionState: string;
      warnings: string[];
      postgres: string;
    };
    expect(result.sessionState).toBe('in_progress');
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Silero voice activity detector needs the package 'onnxruntime-node'.*npm install onnxruntime-node.*using the energy VAD/),
        expect.stringMatching(/speech input is off: .*needs the package 'koffi'.*npm install koffi.*typed turns still work/),
      ]),
    );
    expect(result.postgres).toMatch(/DATABASE_URL \(PostgreSQL\) needs the package 'pg'.*npm install pg.*@palaver\/sdk-node brings it/);
  }, 180_000);
});
