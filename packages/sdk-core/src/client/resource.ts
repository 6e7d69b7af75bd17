import type { HttpClient } from './http-client.js';

/** Base of the resource classes: holds the shared transport. */
export abstract class Resource {
  constructor(protected readonly http: HttpClient) {}
}
