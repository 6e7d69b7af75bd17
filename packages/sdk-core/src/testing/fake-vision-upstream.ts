import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJpeg, meanColour } from '../server/engines/media/index.js';
import { readBody } from './fake-openai-upstream.js';

/** Colour names the fake tells pictures by (the nearest by RGB distance). */
const NAMED_COLOURS: ReadonlyArray<readonly [string, readonly [number, number, number]]> = [
  ['red', [220, 30, 30]],
  ['green', [30, 200, 60]],
  ['blue', [30, 60, 220]],
  ['yellow', [230, 220, 40]],
  ['white', [245, 245, 245]],
  ['black', [10, 10, 10]],
];

/** The name of the colour nearest to an RGB mean. */
export function colourName([r, g, b]: readonly [number, number, number]): string {
  let best = NAMED_COLOURS[0]!;
  let bestDistance = Infinity;
  for (const entry of NAMED_COLOURS) {
    const [nr, ng, nb] = entry[1];
    const distance = (r - nr) ** 2 + (g - ng) ** 2 + (b - nb) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [entry, distance];
  }
  return best[0];
}

/** What the fake saw of one request: its body, and the colours of the JPEG pictures in its last user message. */
export interface VisionRequest {
  body: Record<string, unknown>;
  colours: string[];
  partTypes: string[];
}

export interface FakeVisionUpstream {
  /** Base URL (`http://127.0.0.1:<port>/v1`). */
  readonly baseUrl: string;
  readonly chatUrl: string;
  readonly requests: VisionRequest[];
  close(): Promise<void>;
}

interface Part {
  type?: string;
  image_url?: { url?: string };
}

async function coloursOf(parts: Part[]): Promise<string[]> {
  const colours: string[] = [];
  for (const part of parts) {
    const url = part.type === 'image_url' ? part.image_url?.url : undefined;
    const match = url ? /^data:image\/jpeg;base64,(.+)$/.exec(url) : null;
    if (match) colours.push(colourName(meanColour(await decodeJpeg(Buffer.from(match[1]!, 'base64')))));
  }
  return colours;
}

function send(response: ServerResponse, body: Record<string, unknown>, text: string): void {
  const id = 'chatcmpl-vision';
  const created = Math.floor(Date.now() / 1000);
  if (body.stream !== true) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model: 'fake-vision',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 },
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'fake-vision', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  response.write(chunk({ role: 'assistant', content: '' }, null));
  for (const word of text.split(/(?= )/)) response.write(chunk({ content: word }, null));
  response.write(chunk({}, 'stop'));
  response.end('data: [DONE]\n\n');
}

/**
 * A vision model speaking OpenAI's Chat Completions protocol, for tests: it looks at the JPEG `image_url` pictures of
 * the last user message and answers "It is <colour>." (the nearest named colour of the last picture), "I see no
 * picture." without one; like OpenAI's chat API it refuses `video_url` parts with a 400.
 */
export async function startFakeVisionUpstream(): Promise<FakeVisionUpstream> {
  const requests: VisionRequest[] = [];
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = JSON.parse((await readBody(request)) || '{}') as Record<string, unknown>;
    const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
    const lastUser = messages.filter((message) => message.role === 'user').at(-1);
    const parts = Array.isArray(lastUser?.content) ? (lastUser.content as Part[]) : [];
    const partTypes = parts.map((part) => part.type ?? '');
    const colours = await coloursOf(parts);
    requests.push({ body, colours, partTypes });
    if (partTypes.includes('video_url')) {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: "Invalid content part type 'video_url'", type: 'invalid_request_error', code: null } }));
      return;
    }
    send(response, body, colours.length > 0 ? `It is ${colours.at(-1)}.` : 'I see no picture.');
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    answer(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error), type: 'server_error', code: null } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  return {
    baseUrl,
    chatUrl: `${baseUrl}/chat/completions`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
