// A platform in its own process, for tests that must see it survive, be killed or shut down: prints one JSON
// line `{"url", "apiKey", "joinToken"}` once listening. argv[2]: optional JSON `{ config, databaseSchema }`.
// SIGTERM closes the server gracefully and exits 0 (1 when closing takes over 10 s).
import { createServer } from '../../src/server.js';

const options = process.argv[2] ? (JSON.parse(process.argv[2]) as { config?: Record<string, unknown>; databaseSchema?: string }) : {};
const server = await createServer({
  env: {},
  config: { logLevel: 'silent', ...options.config },
  ...(options.databaseSchema ? { databaseSchema: options.databaseSchema } : {}),
});
const url = await server.listen(0, '127.0.0.1');
const joinToken = await server.services.media.createJoinToken({ room: 'fuzz-room', identity: 'fuzzer' });
process.once('SIGTERM', () => {
  const deadline = setTimeout(() => process.exit(1), 10_000);
  void server.close().then(() => {
    clearTimeout(deadline);
    process.exit(0);
  });
});
process.stdout.write(`${JSON.stringify({ url, apiKey: server.apiKey, joinToken })}\n`);
