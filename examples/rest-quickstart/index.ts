import { quickstart } from './quickstart.js';

const apiKey = process.env.PALAVER_API_KEY;
if (!apiKey) {
  console.error('Set PALAVER_API_KEY (printed by `pnpm start`) and optionally PALAVER_URL.');
  process.exit(1);
}
await quickstart({ baseUrl: process.env.PALAVER_URL ?? 'http://127.0.0.1:8080', apiKey });
