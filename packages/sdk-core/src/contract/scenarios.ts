import { z } from 'zod';
import { DateTime, Id, MessageResponse, PageQuery } from './common.js';
import { defineRoute } from './define-route.js';

export const Scenario = z
  .object({
    id: z.string(),
    created_at: DateTime,
    name: z.string(),
    project: z.string(),
    prompt: z.string(),
    human: z.string().nullable().optional(),
  })
  .meta({ id: 'Scenario', description: 'What the conversation is about: the instructions the agent follows.' });
export type Scenario = z.infer<typeof Scenario>;

const ScenarioName = z.string().min(1).max(200);
const Prompt = z.string().min(1).max(100_000);
const ProjectId = z.string().min(1).max(200).describe("The caller's project id.");

export const CreateScenarioRequest = z.object({ name: ScenarioName, project: ProjectId, prompt: Prompt }).meta({ id: 'CreateScenarioRequest' });
export type CreateScenarioRequest = z.infer<typeof CreateScenarioRequest>;

export const UpdateScenarioRequest = z
  .object({ name: ScenarioName.optional(), project: ProjectId.optional(), prompt: Prompt.optional() })
  .meta({ id: 'UpdateScenarioRequest' });
export type UpdateScenarioRequest = z.infer<typeof UpdateScenarioRequest>;

/** The spec makes `next_page` optional on this list; the server always sends it (null on the last page). */
export const ScenarioList = z
  .object({
    values: z.array(Scenario),
    total_count: z.number().int(),
    next_page: z.string().nullable().optional(),
  })
  .meta({ id: 'ScenarioList' });

const params = z.object({ scenario_id: Id });

export const scenarioRoutes = {
  list: defineRoute({
    operationId: 'scenarios.list',
    method: 'GET',
    path: '/v1/scenario/list',
    auth: 'K/B',
    tag: 'Scenarios',
    summary: 'List scenarios',
    request: { query: PageQuery },
    success: { kind: 'json', schema: ScenarioList },
  }),
  retrieve: defineRoute({
    operationId: 'scenarios.retrieve',
    method: 'GET',
    path: '/v1/scenario/{scenario_id}',
    auth: 'K/B',
    tag: 'Scenarios',
    summary: 'Get a scenario',
    request: { params },
    success: { kind: 'json', schema: Scenario },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'scenarios.update',
    method: 'PUT',
    path: '/v1/scenario/{scenario_id}',
    auth: 'K/B',
    tag: 'Scenarios',
    summary: 'Update a scenario',
    request: { params, body: UpdateScenarioRequest },
    success: { kind: 'json', schema: Scenario },
    errors: [403, 404],
  }),
  delete: defineRoute({
    operationId: 'scenarios.delete',
    method: 'DELETE',
    path: '/v1/scenario/{scenario_id}',
    auth: 'K/B',
    tag: 'Scenarios',
    summary: 'Delete a scenario',
    request: { params },
    success: { kind: 'json', schema: MessageResponse },
    errors: [403, 404],
  }),
  create: defineRoute({
    operationId: 'scenarios.create',
    method: 'POST',
    path: '/v1/scenario',
    auth: 'K/B',
    tag: 'Scenarios',
    summary: 'Create a scenario',
    humanHeader: false,
    request: { body: CreateScenarioRequest },
    success: { kind: 'json', schema: Scenario },
  }),
};
