import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsIn, sourceFiles, type ImportEdge } from './support/import-graph.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const packagesFolder = join(root, 'packages');

/** Every package's sources, tests included. */
function packageSources(): string[] {
  return readdirSync(packagesFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => sourceFiles(join(packagesFolder, entry.name, 'src'), { tests: true }));
}

const named = (cycle: string[]) => cycle.map((file) => relative(root, file)).join(' -> ');

describe('import cycles', () => {
  // Type-only and dynamic imports count: `import type` is erased at run time, but a file that takes its types from a
  // file importing it is still one piece of code in two files (the three circles this test ended were all a type
  // import one way and a value import the other); a dynamic import is a dependency that merely waits.
  it('finds a cycle planted in a graph, type-only and dynamic edges included, and none in a tree', () => {
    const sources: Record<string, string> = {
      '/p/a.ts': "import { b } from './b.js';\nimport { c } from './c.js';\n",
      '/p/b.ts': "import type { A } from './a.js';\n",
      '/p/c.ts': "export const c = () => import('./d.js');\n",
      '/p/d.ts': "export * from './c.js';\n",
      '/p/e.ts': "import { c } from './c.js';\n",
    };
    const read = (file: string) => importsIn(sources[file] ?? '');
    const edges = new Map<string, ImportEdge[]>();
    for (const file of Object.keys(sources)) {
      edges.set(
        file,
        read(file).map((statement) => ({
          to: join(dirname(file), statement.specifier.replace(/\.js$/, '.ts')),
          typeOnly: statement.typeOnly,
          dynamic: statement.dynamic,
        })),
      );
    }
    const cycles = importCycles(edges).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual(['/p/a.ts -> /p/b.ts -> /p/a.ts', '/p/c.ts -> /p/d.ts -> /p/c.ts']);
    // Runtime edges only: the type import and the dynamic import no longer close anything.
    expect(importCycles(edges, (edge) => !edge.typeOnly && !edge.dynamic)).toEqual([]);
    edges.delete('/p/b.ts');
    edges.delete('/p/d.ts');
    expect(importCycles(edges)).toEqual([]);
  });

  it('finds a planted cycle among real files: two files that import each other', () => {
    const a = join(packagesFolder, 'sdk-core/src/contract/graph/pad-values.ts');
    const b = join(packagesFolder, 'sdk-core/src/contract/graph/pad-value-functions.ts');
    const graph = importGraph([a, b], (file) =>
      importsIn(file === a ? "export * from './pad-value-functions.js';" : "import type { ClientPadValue } from './pad-values.js';"),
    );
    expect(importCycles(graph).map(named)).toEqual([
      'packages/sdk-core/src/contract/graph/pad-value-functions.ts -> packages/sdk-core/src/contract/graph/pad-values.ts -> packages/sdk-core/src/contract/graph/pad-value-functions.ts',
    ]);
  });

  it("no package's sources import each other in a circle", () => {
    const cycles = importCycles(importGraph(packageSources())).map(named);
    expect(cycles).toEqual([]);
  });
});
