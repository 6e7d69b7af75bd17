import { analyticsRoutes } from './analytics.js';
import { appRunRoutes } from './app-runs.js';
import { appTemplateRoutes } from './app-templates.js';
import { appRoutes } from './apps.js';
import { audioRoutes } from './audio.js';
import { chatRoutes } from './chat.js';
import { contextRoutes } from './contexts.js';
import { creditRoutes } from './credits.js';
import type { RouteDefinition } from './define-route.js';
import { llmRoutes } from './llms.js';
import { modelRoutes } from './models.js';
import { openAiRealtimeRoutes } from './openai-realtime.js';
import { partnerRoutes } from './partner.js';
import { personaRoutes } from './personas.js';
import { realtimeRoutes } from './realtime.js';
import { responseRoutes } from './responses.js';
import { scenarioRoutes } from './scenarios.js';
import { secretRoutes } from './secrets.js';
import { subgraphRoutes } from './subgraphs.js';
import { toolRoutes } from './tools.js';
import { usageRoutes } from './usage.js';
import { voiceRoutes } from './voices.js';

/** Every operation of the API, grouped by resource. The server registers exactly these. */
export const routes = {
  usage: usageRoutes,
  voices: voiceRoutes,
  credits: creditRoutes,
  chat: chatRoutes,
  models: modelRoutes,
  audio: audioRoutes,
  responses: responseRoutes,
  openaiRealtime: openAiRealtimeRoutes,
  personas: personaRoutes,
  scenarios: scenarioRoutes,
  llms: llmRoutes,
  contexts: contextRoutes,
  realtime: realtimeRoutes,
  partner: partnerRoutes,
  tools: toolRoutes,
  apps: appRoutes,
  appTemplates: appTemplateRoutes,
  subgraphs: subgraphRoutes,
  appRuns: appRunRoutes,
  secrets: secretRoutes,
  analytics: analyticsRoutes,
} as const;

export type Routes = typeof routes;
export type RouteGroupName = keyof Routes;

/** Flat list of every route. */
export const allRoutes: RouteDefinition[] = Object.values(routes).flatMap((group) => Object.values(group as Record<string, RouteDefinition>));
