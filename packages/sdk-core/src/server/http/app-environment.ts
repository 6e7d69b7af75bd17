import type { Logger } from 'pino';
import type { Principal } from '../services/auth/principal.js';

/** Per-request variables on the Hono context. */
export interface AppEnvironment {
  Variables: {
    requestId: string;
    logger: Logger;
    principal?: Principal;
  };
}
