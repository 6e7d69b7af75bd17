import type { RouteGroupName, Routes } from '../../../../contract/routes.js';
import type { GroupHandlers } from '../handler.js';
import { appRunHandlers } from './app-runs.js';
import { audioHandlers } from './audio.js';
import { personaHandlers } from './personas.js';
import { chatHandlers } from './chat.js';
import { scenarioHandlers } from './scenarios.js';
import { llmHandlers } from './llms.js';
import { modelHandlers } from './models.js';
import { responseHandlers } from './responses.js';
import { openAiRealtimeHandlers } from './openai-realtime.js';
import { toolHandlers } from './tools.js';
import { secretHandlers } from './secrets.js';
import { contextHandlers } from './contexts.js';
import { analyticsHandlers } from './analytics.js';
import { voiceHandlers } from './voices.js';
import { usageHandlers } from './usage.js';
import { creditHandlers } from './credits.js';
import { appHandlers } from './apps.js';
import { appTemplateHandlers } from './app-templates.js';
import { subgraphHandlers } from './subgraphs.js';
import { realtimeHandlers } from './realtime.js';
import { partnerHandlers } from './partner.js';

/** The server's handler for every route of the contract. */
export const handlers: { [G in RouteGroupName]: GroupHandlers<Routes[G]> } = {
  usage: usageHandlers,
  voices: voiceHandlers,
  credits: creditHandlers,
  chat: chatHandlers,
  models: modelHandlers,
  audio: audioHandlers,
  responses: responseHandlers,
  openaiRealtime: openAiRealtimeHandlers,
  personas: personaHandlers,
  scenarios: scenarioHandlers,
  llms: llmHandlers,
  contexts: contextHandlers,
  realtime: realtimeHandlers,
  partner: partnerHandlers,
  tools: toolHandlers,
  apps: appHandlers,
  appTemplates: appTemplateHandlers,
  subgraphs: subgraphHandlers,
  appRuns: appRunHandlers,
  secrets: secretHandlers,
  analytics: analyticsHandlers,
};
