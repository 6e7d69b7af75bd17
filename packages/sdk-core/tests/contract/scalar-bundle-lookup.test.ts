import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/kernel/config.js';
import { registerReferenceRoutes, scalarBundlePath } from '../../src/server/edge/http/reference/reference-routes.js';
import { locateScalarBundle, SCALAR_ASSET_FOLDER, scalarAssetName } from '../../src/server/edge/http/reference/scalar-bundle.js';

/**
 * Where the server finds Scalar's bundle (decision 0086): the gzipped copy `@palaver/sdk-node` ships, found from
 * sdk-core's location (npm's flat node_modules, pnpm's nested one) or from the application's folder, else the
 * `@scalar/api-reference` package (the repository's development dependency). Installed layouts are built here in
 * temporary folders; the packed packages themselves are installed by tests/consumers.
 */

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function temporaryFolder(): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'palaver-scalar-lookup-')));
  folders.push(folder);
  return folder;
}

function write(file: string, content: string | Uint8Array): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const SCRIPT = 'window.Scalar={createApiReference(){}};';

/** An installed @palaver/sdk-node with the bundle of Scalar `version` in its build; returns the bundle's file. */
function installSdkNode(root: string, version: string): string {
  write(join(root, 'package.json'), JSON.stringify({ name: '@palaver/sdk-node', version: '0.1.0', exports: { './package.json': './package.json' } }));
  write(join(root, 'dist/index.js'), '');
  return write(join(root, SCALAR_ASSET_FOLDER, scalarAssetName(version)), gzipSync(SCRIPT));
}

/** An installed @palaver/sdk-core; returns a module URL in its build, as the server's chunk has. */
function installSdkCore(root: string): string {
  write(join(root, 'package.json'), JSON.stringify({ name: '@palaver/sdk-core', version: '0.1.0', type: 'module' }));
  return pathToFileURL(write(join(root, 'dist/server.js'), '')).href;
}

/** An installed @scalar/api-reference (an application's own copy, or the repository's development dependency). */
function installScalar(root: string, version: string): string {
  write(
    join(root, 'package.json'),
    JSON.stringify({
      name: '@scalar/api-reference',
      version,
      type: 'module',
      main: './dist/index.js',
      exports: { '.': { import: './dist/index.js', default: './dist/index.js' } },
    }),
  );
  write(join(root, 'dist/index.js'), '');
  return write(join(root, 'dist/browser/standalone.js'), SCRIPT);
}

function link(target: string, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path, 'dir');
}

describe("locating Scalar's bundle", () => {
  it("npm's flat node_modules: the copy in @palaver/sdk-node, before an application's own @scalar/api-reference", () => {
    const app = temporaryFolder();
    const from = installSdkCore(join(app, 'node_modules/@palaver/sdk-core'));
    const shipped = installSdkNode(join(app, 'node_modules/@palaver/sdk-node'), '1.76.0');
    installScalar(join(app, 'node_modules/@scalar/api-reference'), '1.2.3');
    expect(locateScalarBundle({ from, cwd: tmpdir() })).toEqual({ version: '1.76.0', file: shipped, gzipped: true });
  });

  it("npm's nested layout (sdk-core inside sdk-node, a global install): found above sdk-core's folder", () => {
    const prefix = temporaryFolder();
    const shipped = installSdkNode(join(prefix, 'lib/node_modules/@palaver/sdk-node'), '1.76.0');
    const from = installSdkCore(join(prefix, 'lib/node_modules/@palaver/sdk-node/node_modules/@palaver/sdk-core'));
    expect(locateScalarBundle({ from, cwd: tmpdir() })).toEqual({ version: '1.76.0', file: shipped, gzipped: true });
  });

  it("pnpm's nested node_modules: sdk-core's real folder is in the store, sdk-node a link in the application's node_modules", () => {
    const app = temporaryFolder();
    const store = join(app, 'node_modules/.pnpm');
    const from = installSdkCore(join(store, '@palaver+sdk-core@0.1.0/node_modules/@palaver/sdk-core'));
    const shipped = installSdkNode(join(store, '@palaver+sdk-node@0.1.0/node_modules/@palaver/sdk-node'), '1.76.0');
    link(join(store, '@palaver+sdk-node@0.1.0/node_modules/@palaver/sdk-node'), join(app, 'node_modules/@palaver/sdk-node'));
    expect(locateScalarBundle({ from, cwd: tmpdir() })).toEqual({ version: '1.76.0', file: shipped, gzipped: true });
  });

  it('a pnpm workspace that links sdk-node only into the application folder: found from the working directory', () => {
    const workspace = temporaryFolder();
    const store = join(workspace, 'node_modules/.pnpm');
    const from = installSdkCore(join(store, '@palaver+sdk-core@0.1.0/node_modules/@palaver/sdk-core'));
    const shipped = installSdkNode(join(store, '@palaver+sdk-node@0.1.0/node_modules/@palaver/sdk-node'), '1.76.0');
    const api = join(workspace, 'apps/api');
    link(join(store, '@palaver+sdk-node@0.1.0/node_modules/@palaver/sdk-node'), join(api, 'node_modules/@palaver/sdk-node'));
    expect(locateScalarBundle({ from, cwd: api })).toEqual({ version: '1.76.0', file: shipped, gzipped: true });
    expect(locateScalarBundle({ from, cwd: workspace })).toBeUndefined();
  });

  it('without sdk-node: the @scalar/api-reference package beside sdk-core (the repository: its development dependency)', () => {
    const app = temporaryFolder();
    const from = installSdkCore(join(app, 'node_modules/@palaver/sdk-core'));
    expect(locateScalarBundle({ from, cwd: app })).toBeUndefined();
    const file = installScalar(join(app, 'node_modules/@scalar/api-reference'), '1.76.0');
    expect(locateScalarBundle({ from, cwd: app })).toEqual({ version: '1.76.0', file, gzipped: false });
    // A sdk-node without the bundle (an old build) is passed over.
    mkdirSync(join(app, 'node_modules/@palaver/sdk-node/dist'), { recursive: true });
    write(
      join(app, 'node_modules/@palaver/sdk-node/package.json'),
      JSON.stringify({ name: '@palaver/sdk-node', exports: { './package.json': './package.json' } }),
    );
    expect(locateScalarBundle({ from, cwd: app })).toMatchObject({ file, gzipped: false });
  });

  it('in this repository: the development dependency, from the sources (not the build of sdk-node that NODE_PATH reaches under pnpm)', () => {
    const installed = JSON.parse(readFileSync(new URL('../../node_modules/@scalar/api-reference/package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(locateScalarBundle()).toEqual({
      version: installed.version,
      file: expect.stringMatching(/@scalar[/\\]api-reference[/\\]dist[/\\]browser[/\\]standalone\.js$/),
      gzipped: false,
    });
  });

  it('serves the shipped gzipped copy as it is, and unzipped to a client that does not accept gzip', async () => {
    const app = temporaryFolder();
    const file = installSdkNode(join(app, 'node_modules/@palaver/sdk-node'), '9.8.7');
    const hono = new Hono();
    registerReferenceRoutes(
      hono,
      { config: loadConfig({}), projects: { developmentKey: () => 'pk_never' } as never },
      { locateBundle: () => ({ version: '9.8.7', file, gzipped: true }) },
    );
    expect(await (await hono.request('/docs')).text()).toContain(`<script src="${scalarBundlePath('9.8.7')}"></script>`);
    const gzipped = await hono.request(scalarBundlePath('9.8.7'), { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(Buffer.from(await gzipped.arrayBuffer()).equals(readFileSync(file))).toBe(true);
    const plain = await hono.request(scalarBundlePath('9.8.7'), { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });
});
