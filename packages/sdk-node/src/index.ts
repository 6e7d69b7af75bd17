/**
 * `@palaver/sdk-node`: server-side helpers for Palaver.
 *
 * @example
 * import { createUsageToken } from '@palaver/sdk-node';
 */
export { createUsageToken } from './tokens/create-usage-token.js';
export type { CreateUsageTokenOptions } from './tokens/create-usage-token.js';
