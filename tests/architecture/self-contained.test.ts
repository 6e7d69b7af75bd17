import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The team's reading material (the API spec, design notes) sits beside the checkout in `../shared`; a clone
 * elsewhere has none of it. Nothing in the repository may read or cite it, except the one test that compares
 * the contract with the spec when the spec is there (and skips, with a printed reason, when it is not).
 */
const MAY_READ_THE_SPEC = new Set<string>();

/** A mention of the folder beside the repository: `../shared`, `shared/design/...`, `shared/spec/...`. */
const OUTSIDE_REFERENCE = /(\.\.\/shared\b|\bshared\/(design|spec|hooks)\b)/;

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
}

describe('the repository is self-contained', () => {
  it('recognises a reference to the folder beside the repository', () => {
    expect(OUTSIDE_REFERENCE.test('see `shared/design/wire-protocol.md`')).toBe(true);
    expect(OUTSIDE_REFERENCE.test("resolve(root, '../shared/spec/platform-api.md')")).toBe(true);
    expect(OUTSIDE_REFERENCE.test('a shared stylesheet in examples/support/')).toBe(false);
  });

  it('no tracked file reads or cites ../shared (docs/ holds what the project needs)', () => {
    const offenders: string[] = [];
    for (const file of trackedFiles()) {
      if (MAY_READ_THE_SPEC.has(file) || file === 'tests/architecture/self-contained.test.ts') continue;
      if (/\.(png|jpe?g|gif|ico|wasm|y4m|wav|mp3|ogg|opus|bin|onnx|gz|tgz)$/i.test(file)) continue;
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (OUTSIDE_REFERENCE.test(line)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offenders, offenders.join('\n')).toEqual([]);
  });
});
