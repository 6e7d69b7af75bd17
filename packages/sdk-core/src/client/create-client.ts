import { HttpClient, type ClientOptions } from './http-client.js';
import { Personas } from './resources/personas.js';
import { RealtimeSessions } from './resources/realtime.js';
import { Partner } from './resources/partner.js';
import { Scenarios } from './resources/scenarios.js';
import { Llms } from './resources/llms.js';
import { Audio } from './resources/audio.js';
import { Models } from './resources/models.js';
import { Responses } from './resources/responses.js';
import { OpenAiRealtime } from './resources/openai-realtime.js';
import { Tools } from './resources/tools.js';
import { Secrets } from './resources/secrets.js';
import { Usage } from './resources/usage.js';
import { Credits } from './resources/credits.js';
import { Contexts } from './resources/contexts.js';
import { Analytics } from './resources/analytics.js';
import { Voices } from './resources/voices.js';
import { Apps } from './resources/apps.js';
import { AppTemplates } from './resources/app-templates.js';
import { SubGraphs } from './resources/subgraphs.js';
import { AppRuns } from './resources/app-runs.js';
import { Chat } from './resources/chat.js';

/** The typed REST client: one property per resource. */
export class PalaverClient {
  readonly http: HttpClient;
  readonly usage: Usage;
  readonly credits: Credits;
  readonly personas: Personas;
  readonly realtime: RealtimeSessions;
  readonly partner: Partner;
  readonly scenarios: Scenarios;
  readonly llms: Llms;
  /** The caller's LLMs as OpenAI models (Palaver extension). */
  readonly models: Models;
  /** OpenAI's audio endpoints: speech with the platform's voices, transcription with its STT engine. */
  readonly audio: Audio;
  /** OpenAI's Responses API over the platform's LLMs (Palaver extension). */
  readonly responses: Responses;
  /** OpenAI's Realtime API: ephemeral keys for browsers (the socket itself is `/v1/realtime`, for `openai`'s clients). */
  readonly openaiRealtime: OpenAiRealtime;
  readonly tools: Tools;
  readonly secrets: Secrets;
  readonly contexts: Contexts;
  readonly analytics: Analytics;
  readonly voices: Voices;
  readonly apps: Apps;
  readonly appTemplates: AppTemplates;
  readonly subgraphs: SubGraphs;
  readonly appRuns: AppRuns;
  readonly chat: Chat;

  constructor(options: ClientOptions = {}) {
    this.http = new HttpClient(options);
    this.usage = new Usage(this.http);
    this.credits = new Credits(this.http);
    this.personas = new Personas(this.http);
    this.realtime = new RealtimeSessions(this.http);
    this.partner = new Partner(this.http);
    this.scenarios = new Scenarios(this.http);
    this.llms = new Llms(this.http);
    this.models = new Models(this.http);
    this.audio = new Audio(this.http);
    this.responses = new Responses(this.http);
    this.openaiRealtime = new OpenAiRealtime(this.http);
    this.tools = new Tools(this.http);
    this.secrets = new Secrets(this.http);
    this.contexts = new Contexts(this.http);
    this.analytics = new Analytics(this.http);
    this.voices = new Voices(this.http);
    this.apps = new Apps(this.http);
    this.appTemplates = new AppTemplates(this.http);
    this.subgraphs = new SubGraphs(this.http);
    this.appRuns = new AppRuns(this.http);
    this.chat = new Chat(this.http);
  }
}

/**
 * Creates a REST client for the platform.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.PALAVER_API_KEY });
 * const personas = await client.personas.list();
 */
export function createClient(options: ClientOptions = {}): PalaverClient {
  return new PalaverClient(options);
}
