import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsIn, importsOf, resolveImport, sourceFiles, type ImportStatement } from './support/import-graph.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const packagesFolder = join(root, 'packages');
const enginesFolder = join(packagesFolder, 'sdk-core/src/server/engines');
const ENGINES = ['bus', 'speech', 'media', 'llm'] as const;

/**
 * Imports of an engine's internal files from outside its folder (decision 0089): each engine has one public face,
 * its `index.ts`, and every other file, other engines' included, imports it only from there (type imports too).
 * Applies to the packages' sources (their unit tests included); the white-box tests in packages/sdk-core/tests may
 * reach the internals they test.
 */
function faceViolations(files: string[], read: (file: string) => ImportStatement[] = importsOf): string[] {
  const violations: string[] = [];
  for (const file of files) {
    for (const { specifier } of read(file)) {
      const target = resolveImport(file, specifier);
      if (!target || !target.startsWith(enginesFolder + '/')) continue;
      const engine = relative(enginesFolder, target).split('/')[0] ?? '';
      const folder = join(enginesFolder, engine);
      if (file.startsWith(folder + '/')) continue;
      if (target !== join(folder, 'index.ts')) violations.push(`${relative(root, file)} imports ${relative(root, target)} (use engines/${engine}/index.ts)`);
    }
  }
  return violations;
}

function packageSources(): string[] {
  return readdirSync(packagesFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => sourceFiles(join(packagesFolder, entry.name, 'src'), { tests: true }));
}

describe('engine faces', () => {
  it('every engine has its public face, an index.ts', () => {
    expect(ENGINES.filter((engine) => !existsSync(join(enginesFolder, engine, 'index.ts')))).toEqual([]);
  });

  it('recognises a planted import of an engine internal, a type import included, and lets the index and the engine itself pass', () => {
    const outside = join(packagesFolder, 'sdk-core/src/server/agent/planted.ts');
    const inside = join(enginesFolder, 'llm/planted.ts');
    const sources: Record<string, string> = {
      [outside]: [
        "import type { TtsEngine } from '../engines/speech/tts/tts-engine.js';",
        "import { createSpeech } from '../engines/speech/index.js';",
        "const media = () => import('../engines/media/media-service.js');",
      ].join('\n'),
      [inside]: "import { TextSegmenter } from '../speech/tts/text-segmenter.js';\nimport { ChatAudioStore } from './chat-audio-store.js';",
    };
    const violations = faceViolations([outside, inside], (file) => importsIn(sources[file] ?? ''));
    expect(violations).toEqual([
      'packages/sdk-core/src/server/agent/planted.ts imports packages/sdk-core/src/server/engines/speech/tts/tts-engine.ts (use engines/speech/index.ts)',
      'packages/sdk-core/src/server/agent/planted.ts imports packages/sdk-core/src/server/engines/media/media-service.ts (use engines/media/index.ts)',
      'packages/sdk-core/src/server/engines/llm/planted.ts imports packages/sdk-core/src/server/engines/speech/tts/text-segmenter.ts (use engines/speech/index.ts)',
    ]);
  });

  it('code outside an engine imports it only through its index.ts', () => {
    expect(faceViolations(packageSources())).toEqual([]);
  });
});
