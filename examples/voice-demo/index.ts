/**
 * `pnpm start`: the platform with embedded defaults (SQLite, the in-process media endpoint, offline speech and
 * the built-in model) plus the voice demo app. Prints both URLs and the development API key.
 */
import { createServer } from '@palaver/sdk-core/server';
import { startVoiceDemo } from './demo-server.js';

const server = await createServer({});
const platformUrl = await server.listen();
const demo = await startVoiceDemo({ platformUrl, apiKey: server.apiKey, port: Number(process.env.PALAVER_DEMO_PORT ?? 3000) });
process.stdout.write(
  [
    '',
    `  Voice demo:    ${demo.url}   (open it in a browser, allow the microphone)`,
    `  Platform:      ${platformUrl}`,
    `  Dev API key:   ${server.apiKey}`,
    `  API reference: ${platformUrl}/docs`,
    '',
    `  Try: curl -H "x-api-key: ${server.apiKey}" ${platformUrl}/v1/voice/list`,
    '',
  ].join('\n') + '\n',
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await demo.close();
  await server.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
