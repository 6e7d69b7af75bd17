import type { RouteDefinition } from './define-route.js';

// Placeholder: schemas and routes of this group are being written.
export const voiceRoutes = {} satisfies Record<string, RouteDefinition>;
