import { z } from 'zod';
import { TtsClientMessage, TtsServiceMessage } from '../../../contract/tts-socket.js';
import { conformanceMarkdown, OPENAI_CONFORMANCE } from '../../../contract/openai-conformance.js';
import { DataTopicSchemas } from '../../../contract/sdk.js';
import { CHAT_AUDIO_PATH, OPENAI_KEY_SUBPROTOCOL, OPENAI_REALTIME_PATH, TTS_SOCKET_PATH } from '../../../contract/wire.js';
import { RealtimeClientEvent, RealtimeServerEvent } from '../../../contract/openai-realtime-events.js';
import { METRICS_PATH } from './metrics-route.js';

/** Path of the streaming TTS websocket (not an HTTP operation, so not under `paths`). */
/** Paths of the embedded LiveKit-compatible media endpoint (signalling for WebRTC). */
export const MEDIA_ENDPOINT_PATHS = ['/rtc', '/rtc/v1', '/rtc/validate', '/rtc/v1/validate'] as const;

/** Where chat completions' speech output is served (a GET outside the contract; the id is the credential). */
export const CHAT_AUDIO_ROUTE = `${CHAT_AUDIO_PATH}/{id}`;

/** Markdown of `info.description`: authentication, the non-HTTP endpoints and the shared conventions. */
export function openApiDescription(): string {
  return [
    'Palaver is a platform for realtime voice and chat AI agents. Requests and responses are JSON unless an operation says otherwise; paths carry the `/v1` prefix.',
    '',
    '## Authentication',
    '- **API key** (`ApiKey`): send the secret key in the `x-api-key` header, from your server only. The optional `x-human-id` header ties the request to a human (your own user id).',
    "- **Usage token** (`UsageToken`): a JWT minted with `POST /v1/usage/token` for one human, sent as `Authorization: Bearer <token>`. It lets a browser or app call the API directly on behalf of the key with that human's limits. It expires after its `ttl_seconds` and can be revoked.",
    '',
    '## Auth marks: K and K/B',
    'Every operation is marked K or K/B: its description starts with the mark, `x-auth-class` holds it, and its security requirements say the same.',
    '- **K**: an API key only. Such operations (minting usage tokens, tool definitions, credit grants, making an agent speak) list the `ApiKey` scheme alone and refuse usage tokens with 403.',
    '- **K/B**: an API key or a usage token (B for bearer). Either scheme is enough, so a browser holding a usage token can call them.',
    '',
    '## Trying it',
    'Each operation carries an example call: its parameters, body and answer, with a curl command and a TypeScript client call (`createClient` from `@palaver/sdk-core`) in `x-codeSamples`. The reference at `/docs` sends requests to this server: fill in an API key (or a usage token for K/B operations). A server started for development with `PALAVER_DOCS_PREFILL_KEY=true` (as `pnpm start` does) fills in its development key for pages opened on this machine. The same reference as one page without scripts, with the node catalogue of app graphs, is at [/docs/plain](/docs/plain).',
    '',
    '## Lists',
    'List answers share one shape: `values`, `total_count`, `next_page` (a token for the `page` query parameter, or null when there is no further page).',
    '',
    '## Realtime media (not an HTTP operation)',
    '`POST /v1/realtime/start` answers `connection_details` `{url, token}`: a LiveKit URL and access token. The client joins the LiveKit room with a LiveKit client SDK; the agent is another participant. ' +
      `The embedded server hosts a LiveKit-compatible signalling endpoint at ${MEDIA_ENDPOINT_PATHS.map((path) => `\`${path}\``).join(', ')} (websocket; see \`x-livekit\`).`,
    '',
    '## Streaming TTS websocket (not an HTTP operation)',
    `Connect a websocket to \`${TTS_SOCKET_PATH}\` with the same credentials as HTTP calls (\`x-api-key\` or \`Authorization: Bearer\` headers; browsers, which cannot set headers on a websocket, pass \`?token=<usage token>\` or \`?api_key=\`). Refused credentials close the socket with code 4401 (invalid) or 4403 (not allowed). Many sessions share one socket, told apart by the client-chosen \`session\`; audio is 24 kHz mono. Messages are JSON objects \`{type, session, payload}\`: the client sends \`start_session\` {voice}, \`push_text\` {text}, \`eos\` {}; the service answers \`audio\` {audio (base64 PCM16LE), sample_rate, channels, audio_format, encoding}, \`final\` {} and \`error\` {message}. Schemas: \`x-websockets\`.`,
    '',
    "## OpenAI's Realtime API (websocket, not an HTTP operation)",
    `Connect a websocket to \`${OPENAI_REALTIME_PATH}?model=<LLM id>\` (OpenAI's GA event protocol, as the \`openai\` package's \`OpenAIRealtimeWS\` and \`@openai/agents\`' \`RealtimeSession\` speak it) with the same credentials as HTTP calls; browsers send the API key or usage token as the subprotocol \`${OPENAI_KEY_SUBPROTOCOL}<key>\`. The platform's engines answer: server VAD with the adaptive end of turn, the STT engine, the LLM named by \`model\`, the platform's voices (\`audio.output.voice\` is a voice id), PCM16 24 kHz in and out. Bad events are \`error\` events naming the parameter; the session goes on. The human's time on the socket counts as \`conversational_seconds\`. What is served, bridged or refused: the Realtime table under OpenAI compatibility. Schemas: \`x-websockets\`.`,
    '',
    '## Chat completions: speech, audio input and moderation (service extensions)',
    "- `input_audio` user parts (`wav` PCM16, `mp3`, or `ogg` holding Opus or Vorbis; at most 60 s each) are transcribed by the server's speech-to-text engine before the model sees them; undecodable audio and Ogg of another codec are refused with 400 naming `input_audio.data`, and without an STT engine audio parts are refused with 400.",
    `- \`modalities: ["text", "audio"]\` with \`audio: {voice, format}\` (a platform voice id, default \`flite-slt\`; \`mp3\` or \`wav\`) speaks the answer: the message carries \`service_ext.voice\` {\`audio_url\`, \`expires_at\` (Unix seconds, 1 hour by default)}; a stream sends it in one more chunk after the finish chunk (before the usage chunk). \`GET ${CHAT_AUDIO_ROUTE}\` serves the file (\`audio/mpeg\` or \`audio/wav\`) without credentials, the random 128-bit id acting as a signed URL, and answers 404 once expired (see \`x-chat-audio\`). The seconds spoken count as the human's \`voice_synthesis_seconds\`; a used-up limit is refused with 400 \`usage_limit_exceeded\` before the model runs.`,
    '- `metadata.moderation: true` (or `"true"`) moderates the latest user message before the model runs, and the answer: whole when not streamed; sentence by sentence when streamed, each sentence held back until it is checked and then sent in the chunks the model produced. Flagged text is refused with 400 `moderation_error`; in a stream it is never sent, and the stream ends with an `event: error` (`moderation_error`) then `data: [DONE]`. `metadata` is stored with the usage records of the request, and passed to the upstream LLM (without `moderation`) only with `store: true`.',
    '',
    '## OpenAI compatibility',
    "The `openai` package works against `/v1`. Each feature of OpenAI's API, per endpoint and per target: **served** (taken as OpenAI defines it; for an upstream LLM, passed on exactly as given), **bridged** (taken, and mapped onto what the target has), **refused** (400 naming the field; a field OpenAI does not define is refused too, never dropped). The test suite probes every row.",
    '',
    conformanceMarkdown(OPENAI_CONFORMANCE).replace(/^### /gm, '#### '),
    '',
    '## Operations: health and metrics (outside the contract)',
    '- `GET /health` answers `{"status": "ok"}` without credentials while the instance serves requests.',
    `- \`GET ${METRICS_PATH}\` answers this instance's metrics in Prometheus text format, every name prefixed \`palaver_\`: request durations by method, route template and status; live realtime agents; embedded media rooms and participants; the webhook outbox depth and delivery results; the voice agent's per-turn latencies (response, STT final, LLM first token, TTS first audio); speech worker restarts; process and Node.js runtime metrics. It needs an API key as a K operation does (usage tokens are refused with 403) unless the server runs with \`PALAVER_METRICS_PUBLIC=true\`. See \`x-metrics\`.`,
    '',
    '## Errors',
    'Errors answer a BadRequest body `{type, message}`; `type` is one of `invalid_input`, `usage_limit_exceeded`, `project_disabled`, `moderation_error`, `unauthorized`, `forbidden`, `not_found`, `conflict`, `payload_too_large`, `not_implemented`, `upstream_error`, `internal_error`.',
  ].join('\n');
}

function messageSchema(schema: z.core.$ZodType): object {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** Specification extensions describing the endpoints outside the contract (websockets, media, chat audio, metrics). */
export function openApiExtensions(): { 'x-websockets': object; 'x-livekit': object; 'x-chat-audio': object; 'x-metrics': object } {
  return {
    'x-metrics': {
      [METRICS_PATH]: {
        get: {
          summary: "This instance's metrics, Prometheus text format",
          security: [{ ApiKey: [] }],
          'x-public-with': 'PALAVER_METRICS_PUBLIC=true',
          responses: {
            '200': { description: 'The metrics (`palaver_*`)', content: { 'text/plain': {} } },
            '401': { description: 'Missing or invalid API key' },
            '403': { description: 'A usage token: metrics need an API key' },
          },
        },
      },
    },
    'x-chat-audio': {
      [CHAT_AUDIO_ROUTE]: {
        get: {
          summary: 'Speech of a chat completion (`service_ext.voice.audio_url`)',
          security: [],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } }],
          responses: {
            '200': { description: 'The audio', content: { 'audio/mpeg': {}, 'audio/wav': {} } },
            '404': { description: 'Unknown or expired' },
          },
        },
      },
    },
    'x-websockets': {
      [TTS_SOCKET_PATH]: {
        summary: 'Streaming text-to-speech',
        security: [{ ApiKey: [] }, { UsageToken: [] }],
        clientMessages: messageSchema(TtsClientMessage),
        serviceMessages: messageSchema(TtsServiceMessage),
      },
      [OPENAI_REALTIME_PATH]: {
        summary: "OpenAI's Realtime API (GA events) over the platform's engines",
        security: [{ ApiKey: [] }, { UsageToken: [] }],
        clientMessages: messageSchema(RealtimeClientEvent),
        serviceMessages: messageSchema(RealtimeServerEvent),
      },
    },
    'x-livekit': {
      summary: 'LiveKit-compatible media endpoint for realtime sessions (WebRTC signalling over a websocket)',
      paths: [...MEDIA_ENDPOINT_PATHS],
      authentication: 'The `connection_details.token` of a realtime session start, as the `access_token` query parameter or a bearer header.',
      dataTopics: Object.keys(DataTopicSchemas),
    },
  };
}
