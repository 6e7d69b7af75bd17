import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/app/create-server.js';
import { createClient } from '../../src/client/create-client.js';

/** The keys of one JSON log line, in order, as written (JSON.parse would hide duplicates). */
function topLevelKeys(line: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') {
        inString = false;
        if (depth === 1 && line[index + 1] === ':') keys.push(line.slice(start + 1, index));
      }
    } else if (character === '"') {
      inString = true;
      start = index;
    } else if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') depth -= 1;
  }
  return keys;
}

describe('log lines', () => {
  it('carry no key twice across a realtime session with its agent, start to end', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const server = await createServer({ env: {}, logger: pino({ level: 'debug' }, sink) });
    try {
      const client = createClient({ baseUrl: await server.listen(0, '127.0.0.1'), apiKey: server.apiKey, maxRetries: 0 });
      const { session } = await client.realtime.start({ config: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } } });
      await client.realtime.end(session.id);
    } finally {
      await server.close();
    }
    expect(lines.length).toBeGreaterThan(3);
    const duplicated = lines.filter((line) => new Set(topLevelKeys(line)).size !== topLevelKeys(line).length);
    expect(duplicated).toEqual([]);
  });
});
