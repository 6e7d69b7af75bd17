// The packages' import graph, read from their sources the way dependency-direction.test.ts reads them: one regular
// expression over each file, relative specifiers resolved to files (`.js` -> `.ts`/`.tsx`, a folder -> its index).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface ImportStatement {
  specifier: string;
  typeOnly: boolean;
  /** `import('x')`: loaded when the code runs, not when the module loads. */
  dynamic: boolean;
}

/** The `.ts`/`.tsx` files under a folder, tests left out unless asked for. */
export function sourceFiles(folder: string, options: { tests?: boolean } = {}): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !entry.parentPath.includes('node_modules'))
    .filter((entry) => options.tests || !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The import and export-from statements of a source text. */
export function importsIn(text: string): ImportStatement[] {
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

export function importsOf(file: string): ImportStatement[] {
  return importsIn(readFileSync(file, 'utf8'));
}

/** The source file a relative specifier names, or undefined (a package, node:*, or a file that is not there). */
export function resolveImport(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(file), specifier);
  const stem = target.replace(/\.(js|jsx|ts|tsx|mjs)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, target]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  for (const index of ['index.ts', 'index.tsx']) {
    if (existsSync(join(target, index))) return join(target, index);
  }
  return undefined;
}

export interface ImportEdge {
  to: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/** file -> the files it imports, for every file of `files` (edges leaving the set are kept). */
export function importGraph(files: string[], read: (file: string) => ImportStatement[] = importsOf): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const edges: ImportEdge[] = [];
    for (const { specifier, typeOnly, dynamic } of read(file)) {
      const to = resolveImport(file, specifier);
      if (to) edges.push({ to, typeOnly, dynamic });
    }
    graph.set(file, edges);
  }
  return graph;
}

/**
 * The import cycles of a graph: a depth-first search that reports each back edge as the cycle it closes (the
 * files from the edge's target along the current path back to it). Edges `follow` refuses are left out.
 */
export function importCycles(graph: Map<string, ImportEdge[]>, follow: (edge: ImportEdge) => boolean = () => true): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const edge of graph.get(file) ?? []) {
      if (!follow(edge) || !graph.has(edge.to)) continue;
      const seen = state.get(edge.to);
      if (seen === 'open') cycles.push([...path.slice(path.indexOf(edge.to)), edge.to]);
      else if (seen === undefined) visit(edge.to);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}
