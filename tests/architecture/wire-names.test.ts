import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const wireFile = join(root, 'packages/sdk-core/src/contract/wire.ts');

/** `export const NAME = 'value';` of contract/wire.ts: every name both sides of the wire agree on. */
function wireNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const match of readFileSync(wireFile, 'utf8').matchAll(/^export const ([A-Z_]+) = '([^']+)';$/gm)) names.set(match[2]!, match[1]!);
  return names;
}

/** The code of a line without its comment (JSDoc lines and `//` tails), close enough for this check. */
function codeOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('//')) return '';
  return line.replace(/\s\/\/\s.*$/, '');
}

/** Lines where a word as common as `message`, `error` or `agent` is a wire name, not an event or a log level. */
const WIRE_CONTEXT = /\btopic\b|sendRoomData\(|sendData\(|publishData\(|\.identity\b|\bidentity:|destinationIdentities/;

/**
 * Wire literals in one file's code: a distinctive wire value (`lk.agent.state`, `tool_call`, a path) anywhere,
 * a plain-word one (`message`, `error`, `agent`) where the line speaks of topics or identities.
 */
export function wireLiteralsIn(text: string, names: Map<string, string>): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const code = codeOf(line);
    for (const [value, name] of names) {
      const quoted = new RegExp(`['"]${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`);
      if (!quoted.test(code)) continue;
      const plainWord = /^[a-z]+$/.test(value);
      if (!plainWord || WIRE_CONTEXT.test(code)) found.push(`${index + 1}: '${value}' (use ${name} from contract/wire.ts): ${line.trim()}`);
    }
  });
  return found;
}

function sourceFiles(): string[] {
  const packages = join(root, 'packages');
  return readdirSync(packages, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => /\/packages\/[^/]+\/src\//.test(file) && !file.includes('node_modules') && file !== wireFile);
}

describe('wire names are defined once, in contract/wire.ts', () => {
  const names = wireNames();

  it('reads the wire names', () => {
    expect(names.get('lk.agent.state')).toBe('AGENT_STATE_ATTRIBUTE');
    expect(names.get('error')).toBe('ERROR_TOPIC');
    expect(names.get('tool_call')).toBe('TOOL_CALL_TOPIC');
  });

  it('recognises wire literals and leaves ordinary words alone', () => {
    expect(wireLiteralsIn("if (packet.topic === 'error') return;", names)).toHaveLength(1);
    expect(wireLiteralsIn("const attribute = participant.attributes['lk.agent.state'];", names)).toHaveLength(1);
    expect(wireLiteralsIn("await send(JSON.stringify(call), { topic: TOOL_CALL_TOPIC }); const t = 'tool_call';", names)).toHaveLength(1);
    expect(wireLiteralsIn("socket.on('error', onError); logger.log('error', 'failed');", names)).toEqual([]);
    expect(wireLiteralsIn(" * connection.sendData('x', { topic: 'message' }); // an example in a comment", names)).toEqual([]);
  });

  it('no source file spells a wire name itself', () => {
    const offenders = sourceFiles().flatMap((file) => wireLiteralsIn(readFileSync(file, 'utf8'), names).map((hit) => `${relative(root, file)}:${hit}`));
    expect(offenders, offenders.join('\n')).toEqual([]);
  });
});
