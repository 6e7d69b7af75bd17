import { pad, t, type NodeSpec } from '../node-spec.js';
import { textContextMessage } from '../pad-value-functions.js';
import { CONTENT_TYPES } from './video.js';

/** LLM contexts and the LLM itself, through the platform's chat gateway. */
export const llmNodes: NodeSpec[] = [
  {
    type: 'LLMContext',
    description:
      'A conversation for an LLM: the system message, then every message inserted (`insert_0`..), bounded to `max_non_system_messages`. Announces each user message on `new_user_message`.',
    category: { primary: 'ai', secondary: 'llm', tags: ['context', 'conversation'] },
    pads: [
      pad.propertySink('num_inserts', [t.integer({ minimum: 1 })], 1, { group: 'config' }),
      pad.propertySink('max_non_system_messages', [t.integer({ minimum: 0 })], 64),
      pad.propertySink('max_videos', [t.integer({ minimum: 0 })], 2),
      pad.propertySink('max_audios', [t.integer({ minimum: 0 })], 2),
      pad.propertySink('max_images', [t.integer({ minimum: 0 })], 2),
      pad.propertySink('system_message', [t.contextMessage()], textContextMessage('system', 'You are a helpful assistant.')),
      pad.propertySource('source', [t.list([t.contextMessage()])], [textContextMessage('system', 'You are a helpful assistant.')]),
      pad.source('new_user_message', [t.contextMessage()]),
    ],
    repeated: [{ count: 'num_inserts', min: 1, max: 32, pads: [pad.sink('insert_{i}', [t.contextMessage()], { group: 'insert' })] }],
  },
  {
    type: 'ContextMessage',
    description: 'A fixed context message (a system prompt): `role` and `content` make `context_message`.',
    category: { primary: 'core', secondary: 'primitive', tags: ['context', 'message'] },
    pads: [
      pad.propertySink('role', [t.role()], 'system'),
      pad.propertySink('content', [t.string()], ''),
      pad.propertySource('context_message', [t.contextMessage()], textContextMessage('system', '')),
    ],
  },
  {
    type: 'CreateContextMessage',
    description:
      "Makes a context message of each content that arrives, with `role`: a transcription, a text stream once complete, an audio clip's transcription, a frame as a JPEG image, a video clip as an MP4 video (and sampled frames).",
    category: { primary: 'core', secondary: 'primitive', tags: ['context', 'message'] },
    pads: [pad.propertySink('role', [t.role()], 'user'), pad.sink('content', CONTENT_TYPES()), pad.source('context_message', [t.contextMessage()])],
  },
  {
    type: 'OpenAICompatibleLLM',
    description:
      "Runs the LLM on `context` each time `run_trigger` fires, through the platform's chat gateway: `model` is a platform LLM id (empty: the built-in model), tokens are metered and limited as the run's human. Streams the answer on `text_stream`, then the assistant message on `context_message`; calls the tools of the linked ToolGroup and of the MCP nodes its `mcp_server_{i}` pads name. `cancel_trigger` stops the answer. `base_url` and `api_key` are kept for graphs from elsewhere: define the LLM on the platform instead.",
    category: { primary: 'ai', secondary: 'llm', tags: ['llm', 'openai'] },
    pads: [
      pad.sink('run_trigger', [t.trigger()]),
      pad.sink('cancel_trigger', [t.trigger()]),
      pad.propertySink('context', [t.list([t.contextMessage()])], []),
      pad.propertySink('tool_group', [t.nodeReference(['ToolGroup'])], null),
      pad.propertySink('mcp_server_0', [t.nodeReference(['MCP'])], null),
      pad.propertySink('base_url', [t.string()], ''),
      pad.propertySink('api_key', [t.secret()], null),
      pad.propertySink('model', [t.string()], ''),
      pad.propertySink('max_context_len', [t.integer({ minimum: 1 })], 32768),
      pad.source('started', [t.trigger()]),
      pad.source('first_token', [t.trigger()]),
      pad.source('text_stream', [t.textStream()]),
      pad.source('thinking_stream', [t.textStream()], {
        description: 'Reasoning text, for models that stream it apart from the answer; the platform gateway does not separate it yet, so it stays silent.',
      }),
      pad.source('context_message', [t.contextMessage()]),
      pad.source('finished', [t.trigger()]),
      pad.source('tool_calls_started', [t.trigger()]),
      pad.source('tool_calls_finished', [t.trigger()]),
    ],
  },
];
