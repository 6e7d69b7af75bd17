import type { HttpBindings } from '@hono/node-server';
import type { Principal } from '../../kernel/principal.js';

/** Per-request variables on the Hono context. */
export interface AppEnvironment {
  /** Node's request and response under @hono/node-server; absent when the app is called through `fetch`. */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    principal?: Principal;
  };
}
