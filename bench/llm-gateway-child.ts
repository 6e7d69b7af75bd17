/**
 * A child process of `llm-gateway.bench.ts`: `upstream` runs the fake OpenAI upstream, `platform <chatUrl>`
 * runs the platform with an LLM pointing at it. Each prints one JSON line with its addresses and stays up
 * until its parent closes stdin, so client, gateway and upstream never share an event loop.
 */
import { createServer } from '@palaver/sdk-core/server';
import { startFakeOpenAiUpstream } from '../packages/sdk-core/tests/support/fake-openai-upstream.js';

const [mode, chatUrl] = process.argv.slice(2);
let close: () => Promise<void>;
if (mode === 'upstream') {
  const upstream = await startFakeOpenAiUpstream();
  console.log(JSON.stringify({ chatUrl: upstream.chatUrl }));
  close = () => upstream.close();
} else {
  const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
  const baseUrl = await server.listen(0, '127.0.0.1');
  const llm = await server.services.llms.create(
    { project: server.project, kind: 'key', human: null, credentialId: 'bench' },
    { name: 'bench upstream', description: 'fake OpenAI upstream', headers: [], model: 'bench-model', post_url: chatUrl! },
  );
  console.log(JSON.stringify({ baseUrl, apiKey: server.apiKey, llm: llm.id }));
  close = () => server.close();
}
process.stdin.resume();
process.stdin.on('end', () => void close().then(() => process.exit(0)));
