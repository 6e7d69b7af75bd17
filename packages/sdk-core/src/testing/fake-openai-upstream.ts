import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** The `delta` of one upstream chunk (OpenAI wire shape). */
export interface UpstreamDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function?: { name?: string; arguments?: string } }>;
}

/** One scripted chunk: its delta and finish reason, of choice `index` (default 0), with the tokens' `logprobs` if given. */
export interface ScriptedChunk {
  delta: UpstreamDelta;
  finish_reason?: 'stop' | 'length' | 'tool_calls' | 'content_filter' | null;
  index?: number;
  logprobs?: { content: Array<{ token: string; logprob: number; bytes: number[] | null; top_logprobs: unknown[] }> | null } | null;
}

/** What the fake answers to one request; scenarios are consumed in order, then the default answers. */
export type Scenario =
  /** An HTTP error before any byte of a stream (429/500...), with optional headers such as Retry-After. */
  | { kind: 'error'; status: number; headers?: Record<string, string>; message?: string; body?: string }
  /** One whole `chat.completion` (JSON) even for a streamed request, as servers that ignore `stream` answer. */
  | { kind: 'whole'; chunks: ScriptedChunk[]; usage?: UsageFigures }
  /** Accepts the connection and destroys it without answering (a reset before the first byte). */
  | { kind: 'reset-before-headers' }
  /** Sends headers, then nothing for `ms` before continuing with `then` (a stall before the first chunk). */
  | { kind: 'stall-before-first-chunk'; ms: number; then?: ScriptedChunk[] }
  /**
   * A stream of chunks, `delayMs` apart. `after` decides what happens once they are sent: `done` (usage
   * chunk when asked, then `[DONE]`), `reset` (socket destroyed), `stall` (kept open, silent) or
   * `error-event` (an OpenAI error object as data).
   */
  | {
      kind: 'stream';
      chunks: ScriptedChunk[];
      delayMs?: number;
      firstChunkDelayMs?: number;
      after?: 'done' | 'reset' | 'stall' | 'error-event';
      usage?: UsageFigures;
    };

interface UsageFigures {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What the fake saw of one request. */
export interface RecordedRequest {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  receivedAt: number;
  /** When the client closed the connection before the answer ended (an abort), else undefined. */
  abortedAt: number | undefined;
  /** When the answer ended normally. */
  finishedAt: number | undefined;
}

export interface FakeOpenAiUpstream {
  /** Base URL, e.g. `http://127.0.0.1:51234/v1`. */
  readonly baseUrl: string;
  /** Full chat-completions URL (what an LLM definition's `post_url` holds). */
  readonly chatUrl: string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far (a client reusing kept-alive connections opens few). */
  readonly connectionCount: number;
  /** Queues scenarios for the next requests. */
  enqueue(...scenarios: Scenario[]): void;
  /** What every request gets once the queue is empty (default: the greeting, at once). */
  answerByDefault(scenario: Scenario): void;
  /** Resolves when a request's connection closed early (abort), or rejects after `timeoutMs`. */
  waitForAbort(request: RecordedRequest, timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

/** The chunks the fake streams by default: a greeting split word by word. */
export const DEFAULT_REPLY_WORDS = ['Hello', ' from', ' the', ' fake', ' upstream', '.'];

export function textChunks(words: readonly string[], finish: 'stop' | 'length' = 'stop'): ScriptedChunk[] {
  return [{ delta: { role: 'assistant', content: '' } }, ...words.map((word) => ({ delta: { content: word } })), { delta: {}, finish_reason: finish }];
}

/**
 * The chunks of a hosted model's answer: the first word comes with the role, as hosted models stream it, so a
 * `firstChunkDelayMs` is the time to the first token (a role-only chunk first would put it a token later).
 */
export function firstTokenChunks(words: readonly string[]): ScriptedChunk[] {
  const [, ...chunks] = textChunks(words);
  chunks[0] = { delta: { role: 'assistant', content: words[0]! } };
  return chunks;
}

/** A tool call split the way OpenAI streams it: id and name first, then argument fragments. */
export function toolCallChunks(calls: ReadonlyArray<{ id: string; name: string; argumentFragments: string[] }>): ScriptedChunk[] {
  const chunks: ScriptedChunk[] = [{ delta: { role: 'assistant', content: null } }];
  calls.forEach((call, index) => {
    chunks.push({ delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] } });
    for (const fragment of call.argumentFragments) chunks.push({ delta: { tool_calls: [{ index, function: { arguments: fragment } }] } });
  });
  chunks.push({ delta: {}, finish_reason: 'tool_calls' });
  return chunks;
}

/** The whole body of a request, as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * A local server speaking the OpenAI chat-completions protocol on 127.0.0.1, scripted per request:
 * streams, tool calls, 429/5xx errors, stalls and connection resets. It records every request and when
 * a client aborted it.
 *
 * @example
 * const upstream = await startFakeOpenAiUpstream();
 * upstream.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '0' } });
 */
export async function startFakeOpenAiUpstream(): Promise<FakeOpenAiUpstream> {
  const scenarios: Scenario[] = [];
  let fallback: Scenario = { kind: 'stream', chunks: textChunks(DEFAULT_REPLY_WORDS) };
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connectionCount = 0;
  const abortWaiters = new Map<RecordedRequest, Array<(at: number) => void>>();
  let sequence = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const text = await readBody(request);
    const record: RecordedRequest = {
      url: request.url ?? '',
      headers: request.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      receivedAt: performance.now(),
      abortedAt: undefined,
      finishedAt: undefined,
    };
    requests.push(record);
    response.on('close', () => {
      if (response.writableFinished) return;
      record.abortedAt = performance.now();
      for (const waiter of abortWaiters.get(record) ?? []) waiter(record.abortedAt);
    });
    response.on('finish', () => {
      record.finishedAt = performance.now();
    });

    const scenario: Scenario = scenarios.shift() ?? fallback;
    const id = `chatcmpl-fake-${(sequence += 1)}`;
    const model = String(record.body.model ?? 'fake-model');
    const created = Math.floor(Date.now() / 1000);
    const frame = (chunk: ScriptedChunk) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: chunk.index ?? 0, delta: chunk.delta, finish_reason: chunk.finish_reason ?? null, logprobs: chunk.logprobs ?? null }] })}\n\n`;
    const wantsUsage = (record.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    switch (scenario.kind) {
      case 'error':
        response.writeHead(scenario.status, { 'content-type': scenario.body === undefined ? 'application/json' : 'text/plain', ...scenario.headers });
        response.end(
          scenario.body ??
            JSON.stringify({ error: { message: scenario.message ?? `fake upstream error ${scenario.status}`, type: 'server_error', code: null } }),
        );
        return;
      case 'whole': {
        const content = scenario.chunks.map((chunk) => chunk.delta.content ?? '').join('');
        const usage = scenario.usage ?? { prompt_tokens: 11, completion_tokens: scenario.chunks.length, total_tokens: 11 + scenario.chunks.length };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model,
            choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
            usage,
          }),
        );
        return;
      }
      case 'reset-before-headers':
        request.socket.destroy();
        return;
      case 'stall-before-first-chunk':
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.flushHeaders();
        await sleep(scenario.ms);
        if (response.destroyed) return;
        for (const chunk of scenario.then ?? textChunks(DEFAULT_REPLY_WORDS)) response.write(frame(chunk));
        response.end('data: [DONE]\n\n');
        return;
      case 'stream': {
        if (record.body.stream !== true) {
          const content = scenario.chunks.map((chunk) => chunk.delta.content ?? '').join('');
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              id,
              object: 'chat.completion',
              created,
              model,
              choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
            }),
          );
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        if (scenario.firstChunkDelayMs) {
          response.flushHeaders();
          await sleep(scenario.firstChunkDelayMs);
        }
        for (const chunk of scenario.chunks) {
          if (response.destroyed) return;
          // Waiting for the write to reach the socket keeps a later reset from discarding it.
          await new Promise((resolve) => response.write(frame(chunk), resolve));
          if (scenario.delayMs) await sleep(scenario.delayMs);
        }
        switch (scenario.after ?? 'done') {
          case 'reset':
            await sleep(20);
            request.socket.destroy();
            return;
          case 'stall':
            return;
          case 'error-event':
            response.end(`data: ${JSON.stringify({ error: { message: 'fake upstream failed mid-stream', type: 'server_error' } })}\n\n`);
            return;
          case 'done': {
            if (wantsUsage) {
              const usage = scenario.usage ?? { prompt_tokens: 11, completion_tokens: scenario.chunks.length, total_tokens: 11 + scenario.chunks.length };
              response.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
            }
            response.end('data: [DONE]\n\n');
          }
        }
      }
    }
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    connectionCount += 1;
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/v1`;

  return {
    baseUrl,
    chatUrl: `${baseUrl}/chat/completions`,
    requests,
    get connectionCount() {
      return connectionCount;
    },
    answerByDefault(scenario) {
      fallback = scenario;
    },
    enqueue(...more) {
      scenarios.push(...more);
    },
    waitForAbort(request, timeoutMs) {
      if (request.abortedAt !== undefined) return Promise.resolve(request.abortedAt);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`upstream saw no abort within ${timeoutMs} ms`)), timeoutMs);
        const waiters = abortWaiters.get(request) ?? [];
        waiters.push((at) => {
          clearTimeout(timer);
          resolve(at);
        });
        abortWaiters.set(request, waiters);
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
