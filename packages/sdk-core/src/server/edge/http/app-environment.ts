import type { HttpBindings } from '@hono/node-server';
import type { Logger } from 'pino';
import type { Principal } from '../../kernel/principal.js';

/** Per-request variables on the Hono context. */
export interface AppEnvironment {
  /** Node's request and response under @hono/node-server; absent when the app is called through `fetch`. */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    /** The request's logger (a child with the request id), made on first use: most requests never log. */
    logger: () => Logger;
    principal?: Principal;
  };
}
