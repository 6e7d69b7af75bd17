import type { Context } from '../../../contract/contexts.js';
import type { Llm } from '../../../contract/llms.js';
import type { Persona } from '../../../contract/personas.js';
import type { Scenario } from '../../../contract/scenarios.js';
import type { ToolDefinition } from '../../../contract/tools.js';
import type { Voice } from '../../../contract/voices.js';
import { BadRequestError, NotFoundError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import type { ContextService } from '../contexts/context-service.js';
import type { LlmService } from '../llms/llm-service.js';
import { maskHeaders } from '../llms/header-masking.js';
import type { PersonaService } from '../personas/persona-service.js';
import type { ScenarioService } from '../scenarios/scenario-service.js';
import type { ToolService } from '../tools/tool-service.js';
import type { VoiceService } from '../voices/voice-service.js';

/** The generative ids a start or update request names (each optional here; start requires `llm`). */
export interface GenerativeIds {
  llm?: string | undefined;
  voice_override?: string | undefined;
  persona?: string | undefined;
  scenario?: string | undefined;
  context?: string | undefined;
  tool_definitions?: string[] | undefined;
}

/** The objects behind the ids that were given. */
export interface ResolvedGenerative {
  llm?: Llm;
  voice_override?: Voice;
  persona?: Persona;
  scenario?: Scenario;
  context?: Context;
  tool_definitions?: ToolDefinition[];
}

export interface GenerativeSources {
  llms: Pick<LlmService, 'retrieve'>;
  voices: Pick<VoiceService, 'retrieve'>;
  personas: Pick<PersonaService, 'retrieve'>;
  scenarios: Pick<ScenarioService, 'retrieve'>;
  tools: Pick<ToolService, 'retrieve'>;
  contexts: Pick<ContextService, 'retrieve' | 'createContext'>;
}

/**
 * Turns the ids of a session's generative config into the objects the session answers with, as the caller
 * may see them: an id that does not exist or that the caller cannot see is a 400 naming the field
 * (`config.generative.persona`), never a 404 (the session is what the request is about).
 *
 * @example
 * const resolved = await resolver.resolve(principal, { llm: 'builtin-offline', persona: 'persona_01...' }, 'config.generative');
 */
export class GenerativeConfigResolver {
  constructor(private readonly sources: GenerativeSources) {}

  async resolve(principal: Principal, ids: GenerativeIds, fieldPrefix: string): Promise<ResolvedGenerative> {
    const field = (name: string) => `${fieldPrefix}.${name}`;
    const [llm, voice, persona, scenario, context, tools] = await Promise.all([
      ids.llm === undefined ? undefined : this.lookUp(field('llm'), 'LLM', ids.llm, () => this.sources.llms.retrieve(principal, ids.llm!)),
      ids.voice_override === undefined
        ? undefined
        : this.lookUp(field('voice_override'), 'voice', ids.voice_override, () => this.sources.voices.retrieve(principal, ids.voice_override!)),
      ids.persona === undefined
        ? undefined
        : this.lookUp(field('persona'), 'persona', ids.persona, () => this.sources.personas.retrieve(principal, ids.persona!)),
      ids.scenario === undefined
        ? undefined
        : this.lookUp(field('scenario'), 'scenario', ids.scenario, () => this.sources.scenarios.retrieve(principal, ids.scenario!)),
      ids.context === undefined
        ? undefined
        : this.lookUp(field('context'), 'context', ids.context, () => this.sources.contexts.retrieve(principal, ids.context!)),
      ids.tool_definitions === undefined ? undefined : this.resolveTools(principal, ids.tool_definitions, field('tool_definitions')),
    ]);
    return {
      // The session travels to browsers and webhook receivers: literal header values never go with it.
      ...(llm !== undefined ? { llm: llm.headers === undefined ? llm : { ...llm, headers: maskHeaders(llm.headers) } } : {}),
      ...(voice !== undefined ? { voice_override: voice } : {}),
      ...(persona !== undefined ? { persona } : {}),
      ...(scenario !== undefined ? { scenario } : {}),
      ...(context !== undefined ? { context } : {}),
      ...(tools !== undefined ? { tool_definitions: tools } : {}),
    };
  }

  /** A new context for a session given none, tied to its persona and scenario (analytics). */
  async newContext(principal: Principal, settings: { persona?: string | undefined; scenario?: string | undefined }): Promise<Context> {
    return this.sources.contexts.createContext(principal, {
      ...(settings.persona !== undefined ? { persona: settings.persona } : {}),
      ...(settings.scenario !== undefined ? { scenario: settings.scenario } : {}),
    });
  }

  /**
   * Messages are saved as the session's owner: a session of a human can only save to that human's own
   * contexts (the rule of `POST /v1/llm/context/{context}/message`), not to ones shared by the project.
   */
  assertContextWritable(owner: string | null, context: Context, field: string): void {
    if (owner !== null && (context.human ?? null) !== owner) {
      throw new BadRequestError(
        `${field}: context '${context.id}' is not a context of human '${owner}', so the session cannot save messages to it; ` +
          "give one of the human's own contexts, none (a new one is created), or set general.save_messages to false",
      );
    }
  }

  private async resolveTools(principal: Principal, ids: readonly string[], field: string): Promise<ToolDefinition[]> {
    const unique = [...new Set(ids)];
    return Promise.all(
      unique.map((id) => this.lookUp(`${field}[${ids.indexOf(id)}]`, 'tool definition', id, () => this.sources.tools.retrieve(principal, id))),
    );
  }

  private async lookUp<T>(field: string, resource: string, id: string, retrieve: () => Promise<T>): Promise<T> {
    try {
      return await retrieve();
    } catch (error) {
      if (NotFoundError.isInstance(error)) throw new BadRequestError(`${field}: no ${resource} with id '${id}' visible to the caller`);
      throw error;
    }
  }
}
