/**
 * `pnpm --filter @palaver/example-app-run-demo start`: the platform with embedded defaults plus the app run
 * demo. Prints its URL, the platform's and the development API key.
 */
import { createServer } from '@palaver/sdk-core/server';
import { startAppRunDemo } from './demo-server.js';

const server = await createServer({});
const platformUrl = await server.listen();
const demo = await startAppRunDemo({ platformUrl, apiKey: server.apiKey, port: Number(process.env.PALAVER_APP_DEMO_PORT ?? 3001) });
process.stdout.write(
  ['', `  App run demo:  ${demo.url}   (open it in a browser, allow the microphone)`, `  Platform:      ${platformUrl}`, `  Dev API key:   ${server.apiKey}`, ''].join('\n') + '\n',
);
const stop = async () => {
  await demo.close();
  await server.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
