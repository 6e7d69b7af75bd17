import { createServer } from '@palaver/sdk-core/server';
const server = await createServer({ env: {}, config: { logLevel: 'error' } });
const base = await server.listen(0, '127.0.0.1');
for (const path of ['/', '/health', '/v1/persona/list']) {
  const r = await fetch(base + path, { method: 'HEAD', headers: { 'x-api-key': server.apiKey } });
  console.log(path, r.status, [...r.headers].join(' | '));
}
await server.close(); process.exit(0);
