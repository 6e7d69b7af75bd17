// Profiling helper (not a benchmark): GET /v1/persona/{id} through `server.fetch` (no sockets), for `--cpu-prof`.
import { createServer } from '@palaver/sdk-core/server';
const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const created = await server.fetch(
  new Request('http://bench/v1/persona', {
    method: 'POST',
    headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', description: 'A persona for the benchmark', voice: 'flite-slt' }),
  }),
);
const id = ((await created.json()) as { id: string }).id;
const headers = { 'x-api-key': server.apiKey };
const once = async () => {
  const response = await server.fetch(new Request(`http://bench/v1/persona/${id}`, { headers }));
  if (response.status !== 200) throw new Error(String(response.status));
  await response.text();
};
for (let index = 0; index < 3000; index += 1) await once();
const count = Number(process.argv[2] ?? 20000);
const started = performance.now();
for (let index = 0; index < count; index += 1) await once();
const ms = performance.now() - started;
console.log(`${count} GETs in process: ${(count / (ms / 1000)).toFixed(0)}/s, ${((ms * 1000) / count).toFixed(1)} µs each`);
await server.close();
