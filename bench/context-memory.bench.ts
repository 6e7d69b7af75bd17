/**
 * Advanced memory on long messages: appending a 100,000-character message with `advanced_memory: true` (the rule-based
 * extractor reads it into the context's memory graph) for messages shaped to make a naive extractor backtrack
 * (before blanks were collapsed, the first took 34 s), against an ordinary message of the same length (baseline),
 * through the REST client in process. The figure that used to be a limit in rule-based-extractor.test.ts.
 *
 * Run: `pnpm bench context-memory`.
 */
import { createTestPlatform } from '@palaver/sdk-core/testing';
import { fixed, percentile } from './statistics.js';

const RUNS = 5;
const LENGTH = 100_000;

const adversarial = {
  'blanks between two words': `I ${' '.repeat(LENGTH - 10)}x`,
  'one long conjunction': `I like ${'x and '.repeat(16_000)}`,
  'line breaks and spaces': '\n \n'.repeat(33_000),
  'one long possessive': `my ${'a '.repeat(49_000)}`,
};
const ordinary = 'The boats stayed in the harbour while the wind blew over the grey sea all afternoon. '.repeat(Math.ceil(LENGTH / 86)).slice(0, LENGTH);

const test = await createTestPlatform({ config: { webhook: { dispatch: false } } });
try {
  const client = test.clientWith({ apiKey: test.server.apiKey, humanId: 'bench-memory' });
  const context = await client.contexts.create();
  const append = async (content: string): Promise<number> => {
    const started = performance.now();
    await client.contexts.createMessage(context.id, { role: 'user', content, advanced_memory: true });
    return performance.now() - started;
  };
  // Warm-up: the first messages open the store's statements and the extractor's patterns.
  for (let index = 0; index < 3; index += 1) await append(ordinary);
  const measure = async (content: string) => {
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run += 1) samples.push(await append(content));
    return percentile(samples, 50);
  };
  const baseline = await measure(ordinary);
  console.log(`appending a ${LENGTH.toLocaleString('en')}-character message with advanced_memory (REST in process), ${RUNS} runs each:`);
  for (const [name, content] of Object.entries(adversarial)) {
    const p50 = await measure(content);
    console.log(`  ${name.padEnd(26)} p50 ${fixed(p50, 1).padStart(7)} ms  (${fixed(p50 / baseline, 2)}x the baseline)`);
  }
  console.log(`  ${'ordinary prose'.padEnd(26)} p50 ${fixed(baseline, 1).padStart(7)} ms  (baseline)`);
} finally {
  await test.close();
}
