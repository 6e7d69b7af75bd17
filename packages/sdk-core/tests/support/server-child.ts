// A platform in its own process, for tests that must see it survive (or be killed): prints one JSON line
// `{"url", "apiKey", "joinToken"}` once listening. argv: optional JSON of ServerConfigInput.
import { createServer } from '../../src/server.js';

const config = process.argv[2] ? (JSON.parse(process.argv[2]) as Record<string, unknown>) : {};
const server = await createServer({ env: {}, config: { logLevel: 'silent', ...config } });
const url = await server.listen(0, '127.0.0.1');
const joinToken = await server.services.media.createJoinToken({ room: 'fuzz-room', identity: 'fuzzer' });
process.stdout.write(`${JSON.stringify({ url, apiKey: server.apiKey, joinToken })}\n`);
