import { z } from 'zod';
import { Id, PageQuery, listOf } from './common.js';
import { defineRoute } from './define-route.js';

/** Function names the LLM sees (spec part 8): a-z, A-Z, 0-9, `_` and `-`, at most 64 characters. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const ToolName = z.string().regex(TOOL_NAME_PATTERN, 'must be 1 to 64 characters of a-z, A-Z, 0-9, "_" or "-"');

export const ToolParameterType = z.enum(['string', 'number', 'boolean', 'object', 'array']).meta({ id: 'ToolParameterType' });
export type ToolParameterType = z.infer<typeof ToolParameterType>;

export const ToolDefinitionParameter = z
  .object({
    name: ToolName,
    description: z.string().max(2000),
    type: ToolParameterType,
    required: z.boolean(),
    default: z.string().max(2000).optional(),
  })
  .meta({ id: 'ToolDefinitionParameter' });
export type ToolDefinitionParameter = z.infer<typeof ToolDefinitionParameter>;

export const WebRequestDestination = z
  .object({
    type: z.literal('web_request'),
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  })
  .meta({ id: 'WebRequestDestination', description: 'Tool calls are sent to this URL by the platform.' });

export const ClientAppDestination = z
  .object({ type: z.literal('client_app') })
  .meta({ id: 'ClientAppDestination', description: 'Tool calls are delivered to the connected client app.' });

export const ToolDestination = z.discriminatedUnion('type', [WebRequestDestination, ClientAppDestination]).meta({ id: 'ToolDestination' });
export type ToolDestination = z.infer<typeof ToolDestination>;

export const ToolCallSettings = z.object({ id: z.string(), destination: ToolDestination }).meta({ id: 'ToolCallSettings' });

export const ToolDefinition = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    parameters: z.array(ToolDefinitionParameter),
    call_settings: ToolCallSettings,
  })
  .meta({ id: 'ToolDefinition' });
export type ToolDefinition = z.infer<typeof ToolDefinition>;

export const CreateToolDefinitionRequest = z
  .object({
    name: ToolName,
    description: z.string().max(10_000),
    parameters: z
      .array(ToolDefinitionParameter)
      .max(100)
      .superRefine((parameters, context) => {
        const seen = new Set<string>();
        parameters.forEach((parameter, index) => {
          if (seen.has(parameter.name)) context.addIssue({ code: 'custom', message: `duplicate parameter name '${parameter.name}'`, path: [index, 'name'] });
          seen.add(parameter.name);
        });
      }),
    call_settings: z.object({ destination: ToolDestination }),
  })
  .meta({ id: 'CreateToolDefinitionRequest' });
export type CreateToolDefinitionRequest = z.infer<typeof CreateToolDefinitionRequest>;

export const ToolDefinitionList = listOf(ToolDefinition, 'ToolDefinitionList');

const params = z.object({ tool: Id });

export const toolRoutes = {
  create: defineRoute({
    operationId: 'tools.create',
    method: 'POST',
    path: '/v1/tool',
    auth: 'K',
    tag: 'Tool definitions',
    summary: 'Define a tool the agent can call',
    request: { body: CreateToolDefinitionRequest },
    success: { kind: 'json', schema: ToolDefinition },
  }),
  retrieve: defineRoute({
    operationId: 'tools.retrieve',
    method: 'GET',
    path: '/v1/tool/{tool}',
    auth: 'K',
    tag: 'Tool definitions',
    summary: 'Get a tool definition',
    request: { params },
    success: { kind: 'json', schema: ToolDefinition },
    errors: [404],
  }),
  update: defineRoute({
    operationId: 'tools.update',
    method: 'PUT',
    path: '/v1/tool/{tool}',
    auth: 'K',
    tag: 'Tool definitions',
    summary: 'Replace a tool definition',
    request: { params, body: CreateToolDefinitionRequest },
    success: { kind: 'json', schema: ToolDefinition },
    errors: [403, 404],
  }),
  delete: defineRoute({
    operationId: 'tools.delete',
    method: 'DELETE',
    path: '/v1/tool/{tool}',
    auth: 'K',
    tag: 'Tool definitions',
    summary: 'Delete a tool definition',
    request: { params },
    success: { kind: 'empty' },
    errors: [403, 404],
  }),
  list: defineRoute({
    operationId: 'tools.list',
    method: 'GET',
    path: '/v1/tool/list',
    auth: 'K',
    tag: 'Tool definitions',
    summary: 'List tool definitions',
    request: { query: PageQuery },
    success: { kind: 'json', schema: ToolDefinitionList },
  }),
};
