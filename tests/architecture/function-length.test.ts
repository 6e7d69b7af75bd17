import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './support/import-graph.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const voiceFolder = join(root, 'packages/sdk-core/src/server/voice');
/** The longest function the voice layer keeps (decision 0094): a longer one is split into named steps. */
const MAX_LINES = 60;
const MAX_AGENT_LINES = 250;

/** Functions, methods, constructors and function expressions of a source text longer than `max` lines. */
export function longFunctions(name: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      const label = node.name && ts.isIdentifier(node.name) ? node.name.text : `(anonymous at line ${start + 1})`;
      if (lines > max) found.push(`${name}: ${label} has ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it('finds a long function planted in a source, and none in a short one', () => {
    const body = Array.from({ length: 70 }, (_, index) => `  const v${index} = ${index};`).join('\n');
    expect(longFunctions('planted.ts', `export function long() {\n${body}\n}\nclass A { short() { return 1; } }\n`, MAX_LINES)).toEqual([
      'planted.ts: long has 72 lines',
    ]);
    expect(longFunctions('short.ts', 'const f = () => 1;\nclass A { m() { return f(); } }\n', MAX_LINES)).toEqual([]);
  });

  it(`the voice layer has no function over ${MAX_LINES} lines (decision 0094)`, () => {
    const files = sourceFiles(voiceFolder, { tests: false });
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => longFunctions(relative(root, file), readFileSync(file, 'utf8'), MAX_LINES))).toEqual([]);
  });

  it(`the built-in agent's VoiceAgent stays the room's side of the pipeline (under ${MAX_AGENT_LINES} lines)`, () => {
    const lines = readFileSync(join(root, 'packages/sdk-core/src/server/agent/voice-agent.ts'), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(MAX_AGENT_LINES);
  });
});
