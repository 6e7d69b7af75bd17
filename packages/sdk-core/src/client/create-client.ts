import { HttpClient, type ClientOptions } from './http-client.js';
import { Personas } from './resources/personas.js';
import { Usage } from './resources/usage.js';
import { Contexts } from './resources/contexts.js';
import { Analytics } from './resources/analytics.js';
import { Voices } from './resources/voices.js';

/** The typed REST client: one property per resource. */
export class PalaverClient {
  readonly http: HttpClient;
  readonly usage: Usage;
  readonly personas: Personas;
  readonly contexts: Contexts;
  readonly analytics: Analytics;
  readonly voices: Voices;

  constructor(options: ClientOptions = {}) {
    this.http = new HttpClient(options);
    this.usage = new Usage(this.http);
    this.personas = new Personas(this.http);
    this.contexts = new Contexts(this.http);
    this.analytics = new Analytics(this.http);
    this.voices = new Voices(this.http);
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
