// Child process of foundation.bench.ts, run by plain Node (no TypeScript loader): measures one cold start of either
// the platform from its built package (argument 2: the path of dist/server.js, as an application gets it) or a bare
// node:http server, from the first line of this script to the first answered request.

const started = performance.now();
const mode = process.argv[2];

if (mode === 'palaver') {
  const { createServer } = await import(process.argv[3]);
  const imported = performance.now();
  const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
  const response = await server.fetch(new Request('http://bench/v1/persona/list', { headers: { 'x-api-key': server.apiKey } }));
  await response.text();
  const answered = performance.now();
  process.stdout.write(JSON.stringify({ status: response.status, importMs: imported - started, startMs: answered - imported, totalMs: answered - started }));
  await server.close();
} else {
  const http = await import('node:http');
  const imported = performance.now();
  const server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end('{"values":[],"total_count":0,"next_page":null}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const response = await fetch(`http://127.0.0.1:${port}/v1/persona/list`);
  await response.text();
  const answered = performance.now();
  process.stdout.write(JSON.stringify({ status: response.status, importMs: imported - started, startMs: answered - imported, totalMs: answered - started }));
  server.close();
}
