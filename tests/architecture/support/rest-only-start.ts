// Child of lazy-media.test.ts: starts the platform with its defaults and answers one REST request, as a REST-only
// user would, then exits.
import { createServer } from '../../../packages/sdk-core/src/server.js';

const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
const response = await server.fetch(new Request('http://local/v1/persona/list', { headers: { 'x-api-key': server.apiKey } }));
process.stdout.write(`STATUS ${response.status}\n`);
await server.close();
