/** Public types of the contract (types only: importing them adds nothing to a bundle). */
export type { Persona, CreatePersonaRequest, UpdatePersonaRequest } from './personas.js';
export type { Usage, UsageType, UsageLimits } from './usage.js';
export type { RouteDefinition, RouteInput, RouteOutput, AuthClass, HttpMethod } from './define-route.js';
export type { BadRequest, ErrorType } from './common.js';
