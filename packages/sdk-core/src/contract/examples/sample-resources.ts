import type { App } from '../apps.js';
import type { Context, ContextMessage } from '../contexts.js';
import type { Llm } from '../llms.js';
import type { Persona } from '../personas.js';
import type { RealtimeSession } from '../realtime.js';
import type { Scenario } from '../scenarios.js';
import type { SubGraph } from '../subgraphs.js';
import type { ToolDefinition } from '../tools.js';
import type { Voice } from '../voices.js';
import type { GraphInput } from '../apps.js';

/**
 * The resources the examples share, shaped as the server answers them (taken from a running server), so that
 * one conversation reads consistently across operations: the persona Ada, the support scenario, a context with
 * its messages, the weather tool, a session that uses them.
 */
export const ids = {
  project: 'project_dev',
  human: 'user-42',
  persona: 'persona_01m8d9s6spxb2tem23mhy2730y',
  scenario: 'scenario_01m8d9s6t6cqrcvg2pxh77mb2n',
  context: 'context_01m8d9s6v7q535w8aq6ek3jaex',
  firstMessage: 'msg_01m8d9s6v8z866acje0x8xj6me',
  message: 'msg_01m8d9s6vxvnztcah8kn1s266k',
  credit: 'credit_01m8d9s6xdrwfq0depgwkke4st',
  ledgerEntry: 'ledger_01m8d9s6xnzt3teeaeyxaxftw5',
  tool: 'tool_01m8d9s70zmej37sn14pvpm0x6',
  secret: 'secret_01m8d9s712kn5pm4x0cws5saqf',
  llm: 'llm_01m8d9s71apbka960be07rdq7c',
  session: 'rts_01m8d9s71f9w25n6213zm9syx6',
  app: 'app_01m8d9s78ez76117c0na6srty6',
  template: 'app_template_echo',
  subgraph: 'subgraph_01m8d9sa2k4v7c1m0q8e3x5tyb',
  run: 'run_01m8d9sb3p9d2w6f4h8k1n5q7s',
  voice: 'flite-slt',
  builtinLlm: 'builtin-offline',
} as const;

/** When the examples happened: one morning. */
export const at = (minute: number): string => `2025-06-02T09:${String(minute).padStart(2, '0')}:00.000Z`;

/** A LiveKit access token as answered in connection details (a JWT; this one is shortened and unsigned). */
export const SAMPLE_MEDIA_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwidmlkZW8iOnsicm9vbSI6InJ0c18wMW04ZDlzNzFmOXcyNW42MjEzem05c3l4NiIsInJvb21Kb2luIjp0cnVlfX0.c2lnbmF0dXJl';
/** The media endpoint a client joins (the embedded one on the API's port). */
export const SAMPLE_MEDIA_URL = 'ws://127.0.0.1:8080';

export const samplePersona: Persona = {
  id: ids.persona,
  created_at: at(0),
  name: 'Ada',
  description: 'A patient tutor who explains things step by step.',
  voice: ids.voice,
  project: ids.project,
  image_url: null,
  human: null,
  gender: 'female',
  tags: [],
};

export const sampleScenario: Scenario = {
  id: ids.scenario,
  created_at: at(1),
  name: 'Router support',
  project: ids.project,
  prompt: 'Help the caller reset their home router. Ask for the model first, then walk them through it one step at a time.',
  human: null,
};

export const sampleVoice: Voice = {
  id: ids.voice,
  created_at: '2025-01-01T00:00:00.000Z',
  name: 'Sally',
  language: 'en',
  tags: [
    { name: 'gender:female', human_name: 'Female' },
    { name: 'accent:american', human_name: 'American' },
    { name: 'engine:flite', human_name: 'Flite' },
    { name: 'quality:wideband', human_name: 'Wideband (16 kHz)' },
    { name: 'use:conversational', human_name: 'Conversational' },
  ],
  pricing: { price_per_second: '0.0001', currency: 'USD', product_name: 'palaver-embedded-tts' },
  service: 'flite',
  model: null,
  voice: 'slt',
  project: null,
  human: null,
  preview_url: null,
  _extra: { engine: 'flite', sample_rate: 16000, duration_stretch: 1 },
};

export const sampleBuiltinLlm: Llm = {
  id: ids.builtinLlm,
  created_at: '2025-01-01T00:00:00.000Z',
  name: 'Palaver offline test model (deterministic, not a real LLM)',
  type: 'builtin',
  compliance: true,
  description: 'Answers deterministically without any network access. For tests and offline development only.',
  service_tool_calling: true,
  project: null,
  headers: [],
  model: 'palaver-offline',
};

export const sampleProjectLlm: Llm = {
  id: ids.llm,
  created_at: at(5),
  name: 'Team GPT',
  type: 'openai_compatible',
  compliance: false,
  description: "The team's OpenAI endpoint; the key comes from the secret OPENAI_KEY.",
  service_tool_calling: true,
  project: ids.project,
  headers: [{ key: 'Authorization', value: 'Bearer {{secret:OPENAI_KEY}}' }],
  model: 'gpt-4o-mini',
  post_url: 'https://api.openai.com/v1/chat/completions',
};

export const sampleFirstMessage: ContextMessage = {
  id: ids.firstMessage,
  created_at: at(2),
  role: 'user',
  content: [{ type: 'text', text: 'Hi! My router keeps dropping the connection.' }],
};

export const sampleMessage: ContextMessage = {
  id: ids.message,
  created_at: at(3),
  role: 'user',
  content: [{ type: 'text', text: 'My name is Ada and I live in Lisbon.' }],
};

export const sampleContext: Context = {
  id: ids.context,
  created_at: at(2),
  project: ids.project,
  latest_messages: [sampleFirstMessage],
  human: ids.human,
};

export const sampleTool: ToolDefinition = {
  id: ids.tool,
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: [{ name: 'city', description: 'City name, e.g. Lisbon.', type: 'string', required: true }],
  call_settings: {
    id: 'callsettings_01m8d9s70yzvje536k9er3n78h',
    destination: { type: 'web_request', url: 'https://tools.example.com/weather' },
  },
};

export const sampleSession: RealtimeSession = {
  id: ids.session,
  state: 'in_progress',
  created_at: at(10),
  project: ids.project,
  simulated: false,
  config: {
    general: { time_limit_s: 600, save_messages: true },
    input: { interruptable: true, parallel_listening: false },
    generative: {
      llm: sampleBuiltinLlm,
      context: sampleContext,
      tool_definitions: [sampleTool],
      persona: samplePersona,
      scenario: sampleScenario,
    },
    output: { stream_transcript: true, speech_synthesis_enabled: true, answer_message: 'Hello! How can I help with your router?' },
  },
  data: [],
  human: ids.human,
};

/** The smallest useful graph: what the human says comes straight back (the Echo template). */
export const sampleGraph = {
  nodes: [
    {
      id: 'publish',
      type: 'Publish',
      editor_position: [0, 0],
      pads: [{ id: 'audio', type: 'StatelessSourcePad', next_pads: [{ node: 'output', pad: 'audio' }] }],
    },
    {
      id: 'output',
      type: 'Output',
      editor_position: [400, 0],
      pads: [{ id: 'audio', type: 'StatelessSinkPad', next_pads: [], previous_pad: { node: 'publish', pad: 'audio' } }],
    },
  ],
  portals: [],
} satisfies GraphInput;

export const sampleApp: App = {
  id: ids.app,
  name: 'Support line',
  description: '',
  version: 2,
  graph: sampleGraph,
  created_at: at(20),
};

export const sampleTemplate: App = {
  id: ids.template,
  name: 'Echo',
  description: 'Publish -> Output: what you say comes straight back.',
  version: 1,
  graph: sampleGraph,
  created_at: '2025-01-01T00:00:00.000Z',
};

export const sampleSubGraph: SubGraph = {
  id: ids.subgraph,
  name: 'Echo pipeline',
  created_at: at(25),
  updated_at: at(26),
  graph: sampleGraph,
  project: ids.project,
};
