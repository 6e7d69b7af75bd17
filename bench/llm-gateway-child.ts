/**
 * A child process of `llm-gateway.bench.ts`: `upstream` runs the fake OpenAI upstream, `platform <chatUrl>`
 * runs the platform with an LLM pointing at it, `proxy <chatUrl>` runs the floor of any Node gateway: a bare
 * node:http server piping each request to the upstream over a kept-alive agent (no auth, no parsing), and
 * `openai-proxy <chatUrl>` the floor of a gateway that calls its upstream through the `openai` package as
 * issue 5 asks: parse the body, `chat.completions.create`, write each chunk as it comes (no auth, no metering). Each prints one JSON line with its addresses and stays up
 * until its parent closes stdin, so client, gateway and upstream never share an event loop.
 */
import { Agent, createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { createServer } from '@palaver/sdk-core/server';
import { startFakeOpenAiUpstream } from '@palaver/sdk-core/testing';

const [mode, chatUrl] = process.argv.slice(2);
let close: () => Promise<void>;
if (mode === 'upstream') {
  const upstream = await startFakeOpenAiUpstream();
  console.log(JSON.stringify({ chatUrl: upstream.chatUrl }));
  close = () => upstream.close();
} else if (mode === 'proxy') {
  const target = new URL(chatUrl!);
  const agent = new Agent({ keepAlive: true });
  const proxy = createHttpServer((request, response) => {
    const upstream = httpRequest(
      target,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': request.headers['content-length'] ?? '0' } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'text/event-stream' });
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  console.log(JSON.stringify({ chatUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1/chat/completions` }));
  close = () => new Promise((resolve) => proxy.close(() => resolve()));
} else if (mode === 'openai-proxy') {
  const target = new URL(chatUrl!);
  const openai = new OpenAI({ apiKey: 'unused', baseURL: target.origin, maxRetries: 0, fetch: (_input, init) => fetch(target, init) });
  const proxy = createHttpServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as OpenAI.ChatCompletionCreateParamsStreaming;
        const stream = await openai.chat.completions.create({ ...body, stream: true });
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for await (const chunk of stream) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        response.end('data: [DONE]\n\n');
      })().catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  console.log(JSON.stringify({ chatUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1/chat/completions` }));
  close = () => new Promise((resolve) => proxy.close(() => resolve()));
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
