/**
 * `pnpm start`: the platform with embedded defaults (SQLite, the in-process media endpoint, offline speech and
 * the built-in model) plus the two demo apps: a voice agent (`useVoiceAgent`) and an app graph run from a
 * template (`useAppRun`). Prints their URLs and the development API key.
 */
import { createServer } from '@palaver/sdk-core/server';
import { startAppRunDemo } from './app-run-demo/demo-server.js';
import { startVoiceDemo } from './voice-demo/demo-server.js';

const server = await createServer({});
const platformUrl = await server.listen();
const voiceDemo = await startVoiceDemo({ platformUrl, apiKey: server.apiKey, port: Number(process.env.PALAVER_DEMO_PORT ?? 3000) });
const appRunDemo = await startAppRunDemo({ platformUrl, apiKey: server.apiKey, port: Number(process.env.PALAVER_APP_DEMO_PORT ?? 3001) });
process.stdout.write(
  [
    '',
    `  Voice demo:    ${voiceDemo.url}   (open it in a browser, allow the microphone)`,
    `  App run demo:  ${appRunDemo.url}   (the Simple Voice AI template as a running app graph)`,
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
  await Promise.all([voiceDemo.close(), appRunDemo.close()]);
  await server.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
