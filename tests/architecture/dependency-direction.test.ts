import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const coreSource = join(root, 'packages/sdk-core/src');

interface ImportStatement {
  specifier: string;
  typeOnly: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function importsOf(file: string): ImportStatement[] {
  const text = readFileSync(file, 'utf8');
  const statements: ImportStatement[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[3] ?? match[4] ?? match[5];
    if (specifier) statements.push({ specifier, typeOnly: Boolean(match[2]) });
  }
  return statements;
}

function resolvesInto(file: string, specifier: string, folder: string): boolean {
  if (!specifier.startsWith('.')) return false;
  return resolve(dirname(file), specifier).startsWith(folder + '/') || resolve(dirname(file), specifier) === folder;
}

const browserSafeFolders = ['contract', 'client', 'errors', 'realtime', 'tts'].map((name) => join(coreSource, name));
const browserSafeEntries = ['index.ts', 'realtime.ts', 'tts.ts', 'openai.ts'].map((name) => join(coreSource, name));

function browserSafeFiles(): string[] {
  return [
    ...browserSafeFolders.flatMap((folder) => {
      try {
        return sourceFiles(folder);
      } catch {
        return [];
      }
    }),
    ...browserSafeEntries,
  ];
}

describe('dependency direction', () => {
  it('browser-safe code (contract, client, errors, realtime, tts) never imports node:* or the server, nor uses Buffer', () => {
    const violations: string[] = [];
    for (const file of browserSafeFiles()) {
      const name = relative(root, file);
      for (const { specifier } of importsOf(file)) {
        if (specifier.startsWith('node:')) violations.push(`${name} imports ${specifier}`);
        if (resolvesInto(file, specifier, join(coreSource, 'server'))) violations.push(`${name} imports the server (${specifier})`);
      }
      const code = readFileSync(file, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
      if (/\bBuffer\./.test(code) || /\bnew Buffer\b/.test(code)) violations.push(`${name} uses Buffer`);
    }
    expect(violations).toEqual([]);
  });

  it('the server never imports the client, and the contract imports neither', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(join(coreSource, 'server'))) {
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
      let files: string[] = [];
      try {
        files = sourceFiles(join(root, 'packages', packageName, 'src'));
      } catch {
        continue;
      }
      for (const file of files) {
        for (const { specifier } of importsOf(file)) {
          if (specifier.includes('sdk-core/src') || (specifier.startsWith('.') && resolve(dirname(file), specifier).includes('/sdk-core/'))) {
            violations.push(`${relative(root, file)} reaches into sdk-core internals (${specifier})`);
          }
          if (specifier.startsWith('@palaver/sdk-core/') && !['@palaver/sdk-core/realtime', '@palaver/sdk-core/tts', '@palaver/sdk-core/openai', '@palaver/sdk-core/server', '@palaver/sdk-core/testing'].includes(specifier)) {
            violations.push(`${relative(root, file)} imports a non-public entry ${specifier}`);
          }
          if (packageName === 'sdk-react' && specifier === '@palaver/sdk-core/server') violations.push(`${relative(root, file)} imports the server`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
