/**
 * Pad values as clients send and receive them: the `zod/mini` schemas and their types (`pad-value-schemas.ts`) and
 * the zod-free helpers (`pad-value-functions.ts`, which import only the types), in one import.
 */
export * from './pad-value-schemas.js';
export * from './pad-value-functions.js';
