import type { RouteGroupName, Routes } from '../../../contract/routes.js';
import { notImplemented, type GroupHandlers } from '../handler.js';
import { personaHandlers } from './personas.js';
import { contextHandlers } from './contexts.js';
import { analyticsHandlers } from './analytics.js';
import { voiceHandlers } from './voices.js';
import { usageHandlers } from './usage.js';
import { routes } from '../../../contract/routes.js';

/** The server's handler for every route of the contract. */
export const handlers: { [G in RouteGroupName]: GroupHandlers<Routes[G]> } = {
  usage: usageHandlers,
  voices: voiceHandlers,
  credits: notImplemented(routes.credits, 'credits and ledgers'),
  chat: notImplemented(routes.chat, 'the LLM gateway'),
  personas: personaHandlers,
  scenarios: notImplemented(routes.scenarios, 'scenarios'),
  llms: notImplemented(routes.llms, 'LLM definitions'),
  contexts: contextHandlers,
  realtime: notImplemented(routes.realtime, 'realtime agent sessions'),
  partner: notImplemented(routes.partner, 'partner avatar sessions'),
  tools: notImplemented(routes.tools, 'tool definitions'),
  apps: notImplemented(routes.apps, 'apps'),
  appTemplates: notImplemented(routes.appTemplates, 'app templates'),
  subgraphs: notImplemented(routes.subgraphs, 'sub graphs'),
  appRuns: notImplemented(routes.appRuns, 'the app-graph runtime'),
  secrets: notImplemented(routes.secrets, 'secrets'),
  analytics: analyticsHandlers,
};
