import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const coreSource = join(root, 'packages/sdk-core/src');
const serverSource = join(coreSource, 'server');

interface ImportStatement {
  specifier: string;
  typeOnly: boolean;
  /** `import('x')`: loaded when the code runs, not when the module loads. */
  dynamic: boolean;
}

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
  /** Palaver's own: packages compiled into the server build. */
  palaver?: { bundledIntoBuild?: string[] };
}

function manifest(packageName: string): Manifest {
  return JSON.parse(readFileSync(join(root, 'packages', packageName, 'package.json'), 'utf8')) as Manifest;
}

function sourceFiles(folder: string, options: { tests?: boolean } = {}): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !entry.parentPath.includes('node_modules'))
    .filter((entry) => options.tests || !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(file: string): ImportStatement[] {
  const text = readFileSync(file, 'utf8');
  const statements: ImportStatement[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[3] ?? match[4] ?? match[5];
    // `typeof import('x')` in a type position is erased like an `import type`.
    const typeOnly = Boolean(match[2]) || (match[5] !== undefined && /typeof\s+$/.test(text.slice(0, match.index)));
    if (specifier) statements.push({ specifier, typeOnly, dynamic: match[5] !== undefined && !typeOnly });
  }
  return statements;
}

function resolvesInto(file: string, specifier: string, folder: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const target = resolve(dirname(file), specifier);
  return target.startsWith(folder + '/') || target === folder;
}

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for relative and node: imports. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const browserSafeFolders = ['contract', 'client', 'errors', 'realtime', 'tts'].map((name) => join(coreSource, name));
const browserSafeEntries = ['index.ts', 'realtime.ts', 'tts.ts', 'graph.ts', 'openai.ts'].map((name) => join(coreSource, name));

function browserSafeFiles(): string[] {
  return [...browserSafeFolders.flatMap((folder) => sourceFiles(folder)), ...browserSafeEntries];
}

/**
 * The server's layers, lowest first; a file may import its own layer and the ones below
 * (docs/decisions/0068-server-layers.md). The voice layer sits on the engines; the built-in agent and the graph runtime
 * are two users of it side by side: neither imports the other (decision 0094). Inside `engines/`, speech is below media and llm,
 * and telephony (phone calls bridged into rooms) sits on media.
 */
const LAYERS = ['kernel', 'store', 'engines', 'voice', 'agent', 'graph', 'domain', 'edge', 'app'] as const;
/** Layers of one floor: they may not import each other. */
const SIDE_BY_SIDE = [['agent', 'graph']] as const;
const ENGINES = ['bus', 'speech', 'media', 'telephony', 'llm'] as const;

function layerOf(file: string): { layer: number; engine: number | undefined } | undefined {
  const parts = relative(serverSource, file).split('/');
  const layer = LAYERS.indexOf(parts[0] as (typeof LAYERS)[number]);
  if (layer < 0) return undefined;
  const engine = parts[0] === 'engines' ? ENGINES.indexOf(parts[1] as (typeof ENGINES)[number]) : undefined;
  return { layer, engine };
}

describe('dependency direction', () => {
  it('browser-safe code (contract, client, errors, realtime, tts) never imports node:* or the server, nor uses Buffer', () => {
    const violations: string[] = [];
    for (const file of browserSafeFiles()) {
      const name = relative(root, file);
      for (const { specifier } of importsOf(file)) {
        if (specifier.startsWith('node:') || builtinModules.includes(specifier)) violations.push(`${name} imports ${specifier}`);
        if (resolvesInto(file, specifier, serverSource)) violations.push(`${name} imports the server (${specifier})`);
      }
      const code = readFileSync(file, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
      if (/\bBuffer\./.test(code) || /\bnew Buffer\b/.test(code)) violations.push(`${name} uses Buffer`);
    }
    expect(violations).toEqual([]);
  });

  it("browser-safe code imports at runtime only sdk-core's dependencies, and every dependency serves the browser entries", () => {
    const dependencies = Object.keys(manifest('sdk-core').dependencies ?? {});
    const optionalPeers = Object.keys(manifest('sdk-core').peerDependencies ?? {});
    const violations: string[] = [];
    const used = new Set<string>();
    for (const file of browserSafeFiles()) {
      for (const { specifier, typeOnly, dynamic } of importsOf(file)) {
        const name = packageOf(specifier);
        if (!name) continue;
        // Erased types, or an optional peer loaded on demand (the `./openai` entry and `openai`).
        if ((typeOnly || dynamic) && optionalPeers.includes(name)) continue;
        if (dependencies.includes(name)) used.add(name);
        else violations.push(`${relative(root, file)} imports ${specifier}, not a browser dependency of sdk-core`);
      }
    }
    expect(violations).toEqual([]);
    expect(
      dependencies.filter((name) => !used.has(name)),
      'dependencies no browser entry uses',
    ).toEqual([]);
  });

  it('the server imports only packages it declares: optional peers of sdk-core, all brought by sdk-node, or compiled into the build', () => {
    const core = manifest('sdk-core');
    const node = manifest('sdk-node');
    // Compiled into the server build (tsup's noExternal): needed only to build, so a development dependency, and
    // neither a peer nor one of sdk-node's (an installed copy would go unused).
    const bundled = core.palaver?.bundledIntoBuild ?? [];
    expect(
      bundled.filter((name) => !(name in (core.devDependencies ?? {}))),
      'bundled packages that are not development dependencies',
    ).toEqual([]);
    expect(
      bundled.filter((name) => name in (core.peerDependencies ?? {}) || name in (node.dependencies ?? {})),
      'bundled packages also installed',
    ).toEqual([]);
    const declared = new Set([...Object.keys(core.dependencies ?? {}), ...Object.keys(core.peerDependencies ?? {}), ...bundled]);
    const violations: string[] = [];
    for (const file of [...sourceFiles(serverSource), join(coreSource, 'server.ts'), join(coreSource, 'server-commonjs.ts')]) {
      for (const { specifier } of importsOf(file)) {
        const name = packageOf(specifier);
        if (name && !declared.has(name) && !name.startsWith('@palaver/')) violations.push(`${relative(root, file)} imports undeclared ${name}`);
      }
    }
    expect(violations).toEqual([]);
    const peers = Object.keys(core.peerDependencies ?? {});
    expect(
      peers.filter((name) => core.peerDependenciesMeta?.[name]?.optional !== true),
      'peers that are not optional',
    ).toEqual([]);
    const broughtByNode = { ...node.dependencies, ...node.optionalDependencies };
    expect(
      peers.filter((name) => !(name in broughtByNode)),
      'server packages @palaver/sdk-node does not bring',
    ).toEqual([]);
  });

  it("Scalar's reference ships as one file in sdk-node's build: @scalar/api-reference is only a development dependency, one version (decision 0086)", () => {
    const core = manifest('sdk-core');
    const node = manifest('sdk-node');
    const scalar = '@scalar/api-reference';
    // sdk-node's build copies the bundle from it; sdk-core's tests serve it from node_modules.
    expect(node.devDependencies?.[scalar], "sdk-node's development dependency").toMatch(/^\d+\.\d+\.\d+$/);
    expect(core.devDependencies?.[scalar], "sdk-core's, the same pinned version").toBe(node.devDependencies?.[scalar]);
    const installedBy = [core.dependencies, core.peerDependencies, node.dependencies, node.optionalDependencies, node.peerDependencies].filter(
      (list) => list && scalar in list,
    );
    expect(installedBy, 'installed for users').toEqual([]);
  });

  it('the server keeps its layer order: app -> edge -> domain -> graph | agent -> voice -> engines -> store -> kernel', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(serverSource)) {
      const from = layerOf(file);
      if (!from) {
        violations.push(`${relative(root, file)} is outside the layers ${LAYERS.join(', ')}`);
        continue;
      }
      for (const { specifier } of importsOf(file)) {
        if (!resolvesInto(file, specifier, serverSource)) continue;
        const to = layerOf(resolve(dirname(file), specifier));
        if (!to) continue;
        const name = `${relative(serverSource, file)} -> ${relative(serverSource, resolve(dirname(file), specifier))}`;
        if (to.layer > from.layer) violations.push(`${name} (${LAYERS[from.layer]} imports ${LAYERS[to.layer]})`);
        const pair = [LAYERS[from.layer], LAYERS[to.layer]];
        if (
          pair[0] !== pair[1] &&
          SIDE_BY_SIDE.some((floor) => (floor as readonly string[]).includes(pair[0]!) && (floor as readonly string[]).includes(pair[1]!))
        ) {
          violations.push(`${name} (${pair[0]} imports ${pair[1]}: they are side by side)`);
        }
        if (from.engine !== undefined && to.engine !== undefined && to.engine > from.engine) {
          violations.push(`${name} (engine ${ENGINES[from.engine]} imports engine ${ENGINES[to.engine]})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('the server never imports the client, and the contract imports neither', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(serverSource)) {
      for (const { specifier } of importsOf(file)) {
        if (resolvesInto(file, specifier, join(coreSource, 'client'))) violations.push(`${relative(root, file)} imports ${specifier}`);
      }
    }
    for (const file of sourceFiles(join(coreSource, 'contract'))) {
      for (const { specifier } of importsOf(file)) {
        for (const forbidden of ['client', 'server', 'realtime', 'tts']) {
          if (resolvesInto(file, specifier, join(coreSource, forbidden))) violations.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('client code takes contract schemas as types only, except compact zod/mini wire schemas', () => {
    const violations: string[] = [];
    const clientFiles = browserSafeFiles().filter((file) => !file.startsWith(join(coreSource, 'contract') + '/'));
    for (const file of clientFiles) {
      for (const { specifier, typeOnly } of importsOf(file)) {
        if (typeOnly || !resolvesInto(file, specifier, join(coreSource, 'contract'))) continue;
        const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
        const usesFullZod = importsOf(target).some((statement) => statement.specifier === 'zod' && !statement.typeOnly);
        if (usesFullZod) violations.push(`${relative(root, file)} imports full-zod schemas at runtime from ${specifier}`);
      }
      for (const { specifier, typeOnly } of importsOf(file)) {
        if (specifier === 'zod' && !typeOnly) violations.push(`${relative(root, file)} imports zod (use zod/mini for wire messages)`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('sdk-react and sdk-node use only the public entries of sdk-core', () => {
    const violations: string[] = [];
    for (const packageName of ['sdk-react', 'sdk-node']) {
      for (const file of sourceFiles(join(root, 'packages', packageName, 'src'))) {
        for (const { specifier } of importsOf(file)) {
          if (specifier.includes('sdk-core/src') || (specifier.startsWith('.') && resolve(dirname(file), specifier).includes('/sdk-core/'))) {
            violations.push(`${relative(root, file)} reaches into sdk-core internals (${specifier})`);
          }
          if (
            specifier.startsWith('@palaver/sdk-core/') &&
            ![
              '@palaver/sdk-core/realtime',
              '@palaver/sdk-core/tts',
              '@palaver/sdk-core/openai',
              '@palaver/sdk-core/server',
              '@palaver/sdk-core/testing',
            ].includes(specifier)
          ) {
            violations.push(`${relative(root, file)} imports a non-public entry ${specifier}`);
          }
          if (packageName === 'sdk-react' && specifier === '@palaver/sdk-core/server') violations.push(`${relative(root, file)} imports the server`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('e2e, bench and examples import the packages by name, never through deep paths into their sources', () => {
    const violations: string[] = [];
    for (const folder of ['e2e', 'bench', 'examples']) {
      for (const file of sourceFiles(join(root, folder), { tests: true })) {
        for (const { specifier } of importsOf(file)) {
          const deep = specifier.startsWith('.') && resolve(dirname(file), specifier).startsWith(join(root, 'packages') + '/');
          if (deep || /^@palaver\/[^/]+\/(src|dist)\//.test(specifier)) violations.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
