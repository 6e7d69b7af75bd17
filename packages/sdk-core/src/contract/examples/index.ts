import type { RouteGroupName, Routes } from '../routes.js';
import { analyticsExamples } from './analytics.js';
import { appRunExamples } from './app-runs.js';
import { appTemplateExamples } from './app-templates.js';
import { appExamples } from './apps.js';
import { chatExamples } from './chat.js';
import { contextExamples } from './contexts.js';
import { creditExamples } from './credits.js';
import { llmExamples } from './llms.js';
import { audioExamples } from './audio.js';
import { modelExamples } from './models.js';
import { partnerExamples } from './partner.js';
import { personaExamples } from './personas.js';
import { realtimeExamples } from './realtime.js';
import { responseExamples } from './responses.js';
import { openAiRealtimeExamples } from './openai-realtime.js';
import type { AnyRouteExample, GroupExamples } from './route-example.js';
import { scenarioExamples } from './scenarios.js';
import { secretExamples } from './secrets.js';
import { subgraphExamples } from './subgraphs.js';
import { toolExamples } from './tools.js';
import { usageExamples } from './usage.js';
import { voiceExamples } from './voices.js';

export type { AnyRouteExample, GroupExamples, RouteExample } from './route-example.js';

/**
 * An example call of every route, by group and route name like `routes`: a group or route without one does not
 * compile. The OpenAPI document shows them (parameters, bodies, answers, code samples); a test parses each with
 * its schema.
 */
export const routeExamples: { [G in RouteGroupName]: GroupExamples<Routes[G]> } = {
  usage: usageExamples,
  voices: voiceExamples,
  credits: creditExamples,
  chat: chatExamples,
  models: modelExamples,
  audio: audioExamples,
  responses: responseExamples,
  openaiRealtime: openAiRealtimeExamples,
  personas: personaExamples,
  scenarios: scenarioExamples,
  llms: llmExamples,
  contexts: contextExamples,
  realtime: realtimeExamples,
  partner: partnerExamples,
  tools: toolExamples,
  apps: appExamples,
  appTemplates: appTemplateExamples,
  subgraphs: subgraphExamples,
  appRuns: appRunExamples,
  secrets: secretExamples,
  analytics: analyticsExamples,
};

/**
 * The examples keyed by operation id, given the routes by group (`routes`).
 *
 * @example
 * examplesByOperationId(routes).get('personas.create')?.body; // { name: 'Ada', ... }
 */
export function examplesByOperationId(groups: Record<string, Record<string, { operationId: string }>>): Map<string, AnyRouteExample> {
  const found = new Map<string, AnyRouteExample>();
  for (const [groupName, group] of Object.entries(groups)) {
    const examples = (routeExamples as unknown as Record<string, Record<string, AnyRouteExample> | undefined>)[groupName];
    for (const [name, route] of Object.entries(group)) {
      const example = examples?.[name];
      if (example) found.set(route.operationId, example);
    }
  }
  return found;
}
