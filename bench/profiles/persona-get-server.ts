// Profiling helper (not a benchmark): serves the platform and answers with the persona URL, for `--cpu-prof`.
import { createServer } from '@palaver/sdk-core/server';
const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const base = await server.listen(0, '127.0.0.1');
const created = await fetch(`${base}/v1/persona`, {
  method: 'POST',
  headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Bench', description: 'A persona for the benchmark', voice: 'flite-slt' }),
});
const id = ((await created.json()) as { id: string }).id;
process.stdout.write(JSON.stringify({ url: `${base}/v1/persona/${id}`, key: server.apiKey }) + '\n');
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
