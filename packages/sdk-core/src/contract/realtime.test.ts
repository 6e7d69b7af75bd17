import { describe, expect, it } from 'vitest';
import { PartnerAvatarSessionStartRequest } from './partner.js';
import { RealtimeSessionConfigUpdate, RealtimeSessionStartRequest, WORKER_SESSION_LLM } from './realtime.js';

const minimalConfig = { general: {}, input: {}, output: {}, generative: { llm: 'llm_1' } };

describe('realtime session requests', () => {
  it('fills the spec defaults of every section', () => {
    const parsed = RealtimeSessionStartRequest.parse({ config: minimalConfig });
    expect(parsed.config).toEqual({
      general: { time_limit_s: null, save_messages: true },
      input: { interruptable: true, parallel_listening: false },
      output: { stream_transcript: true, speech_synthesis_enabled: true },
      generative: { llm: 'llm_1' },
    });
  });

  it('requires the four sections and the LLM id, and bounds the time limit', () => {
    const issues = (value: unknown) => RealtimeSessionStartRequest.safeParse(value).error?.issues.map((issue) => issue.path.join('.')) ?? [];
    expect(issues({})).toEqual(['config']);
    expect(issues({ config: { ...minimalConfig, output: undefined } })).toEqual(['config.output']);
    expect(issues({ config: { ...minimalConfig, generative: {} } })).toEqual(['config.generative.llm']);
    expect(issues({ config: { ...minimalConfig, general: { time_limit_s: 0 } } })).toEqual(['config.general.time_limit_s']);
    expect(issues({ config: { ...minimalConfig, general: { time_limit_s: 1.5 } } })).toEqual(['config.general.time_limit_s']);
    expect(issues({ config: { ...minimalConfig, output: { answer_message: '' } } })).toEqual(['config.output.answer_message']);
  });

  it('lets a worker-run session leave out input, output and generative (Palaver extension), filled with their defaults', () => {
    const agent = { type: 'livekit_worker', agent_name: 'echo-agent' } as const;
    expect(RealtimeSessionStartRequest.parse({ config: { general: { agent } } }).config).toEqual({
      general: { time_limit_s: null, save_messages: true, agent },
      input: { interruptable: true, parallel_listening: false },
      output: { stream_transcript: true, speech_synthesis_enabled: true },
      generative: { llm: WORKER_SESSION_LLM },
    });
    // A context named without an LLM: the generative section only says where the messages go.
    expect(RealtimeSessionStartRequest.parse({ config: { general: { agent }, generative: { context: 'ctx_1' } } }).config.generative).toEqual({
      llm: WORKER_SESSION_LLM,
      context: 'ctx_1',
    });
  });

  it('still requires every section and the LLM id for the built-in agent, saying why', () => {
    for (const general of [{}, { agent: { type: 'builtin' } }]) {
      const result = RealtimeSessionStartRequest.safeParse({ config: { general } });
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['config.input', 'config.generative', 'config.output']);
      expect(result.error?.issues[0]?.message).toContain('required unless `general.agent` is a LiveKit Agents worker');
    }
    const withoutLlm = RealtimeSessionStartRequest.safeParse({ config: { ...minimalConfig, generative: { context: 'ctx_1' } } });
    expect(withoutLlm.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['config.generative.llm']);
  });

  it('keeps updates partial: no defaults are filled in, null removes the time limit', () => {
    expect(RealtimeSessionConfigUpdate.parse({ output: { speech_synthesis_enabled: false } })).toEqual({ output: { speech_synthesis_enabled: false } });
    expect(RealtimeSessionConfigUpdate.parse({ general: { time_limit_s: null } })).toEqual({ general: { time_limit_s: null } });
    expect(RealtimeSessionConfigUpdate.parse({})).toEqual({});
  });
});

describe('partner avatar start request', () => {
  const base = { conversation_id: 'conv_1', config: { general: {}, input: {}, generative: {}, output: {} } };

  it('accepts exactly one avatar source and defaults the environment', () => {
    expect(PartnerAvatarSessionStartRequest.parse({ ...base, avatar_agent_id: 'a1' })).toMatchObject({ environment: 'production', avatar_agent_id: 'a1' });
    expect(PartnerAvatarSessionStartRequest.safeParse({ ...base, avatar_agent_image_url: 'https://img.test/a.png' }).success).toBe(true);
  });

  it('rejects both or neither avatar source, naming avatar_agent_id', () => {
    for (const sources of [{}, { avatar_agent_id: 'a1', avatar_agent_image_url: 'https://img.test/a.png' }]) {
      const result = PartnerAvatarSessionStartRequest.safeParse({ ...base, ...sources });
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['avatar_agent_id']);
    }
  });
});
