import { z } from 'zod';
import { GraphInput } from './apps.js';
import { FreeObject, Id } from './common.js';
import { defineRoute } from './define-route.js';

export const AppRun = z
  .object({
    id: z.string(),
    app: z.string().optional().describe('Id of the app being run.'),
    version: z.number().int().optional().describe('Version of the app being run.'),
  })
  .meta({ id: 'AppRun', description: 'One execution of an app graph.' });
export type AppRun = z.infer<typeof AppRun>;

export const AppRunConnectionDetails = z
  .object({ token: z.string(), url: z.string() })
  .meta({ id: 'AppRunConnectionDetails', description: "Where and how to join the run's realtime media connection." });
export type AppRunConnectionDetails = z.infer<typeof AppRunConnectionDetails>;

export const AppRunPadValueType = z.enum(['string', 'float', 'int', 'boolean', 'object', 'enum']).meta({ id: 'AppRunPadValueType' });

export const AppRunPadValue = z
  .object({
    type: AppRunPadValueType,
    value: z.union([z.string(), z.number(), z.boolean(), FreeObject]).optional(),
  })
  .superRefine((pad, context) => {
    if (pad.value === undefined) return;
    const expected: Record<z.infer<typeof AppRunPadValueType>, (value: unknown) => boolean> = {
      string: (value) => typeof value === 'string',
      enum: (value) => typeof value === 'string',
      float: (value) => typeof value === 'number',
      int: (value) => Number.isInteger(value),
      boolean: (value) => typeof value === 'boolean',
      object: (value) => typeof value === 'object' && value !== null,
    };
    if (!expected[pad.type](pad.value)) {
      context.addIssue({ code: 'custom', message: `value does not match type '${pad.type}'`, path: ['value'] });
    }
  })
  .meta({ id: 'AppRunPadValue', description: 'A typed value for a node pad.' });
export type AppRunPadValue = z.infer<typeof AppRunPadValue>;

export const AppRunNodePadValueParam = z
  .object({
    node: z.string().min(1).max(128).describe('Id of the node that owns the pad.'),
    pad: z.string().min(1).max(128).describe('Id of the pad.'),
    item: z.unknown().optional().describe('Listed as required by the spec without a type; accepted as given.'),
    value: AppRunPadValue,
  })
  .meta({ id: 'AppRunNodePadValueParam' });
export type AppRunNodePadValueParam = z.infer<typeof AppRunNodePadValueParam>;

const Overrides = z.array(AppRunNodePadValueParam).max(1000);

/** Palaver extension: LiveKit Agents workers whose agents join the run's room next to the graph. */
export const AppRunLivekitAgent = z
  .object({
    agent_name: z.string().min(1).max(128).describe('The `agentName` the worker registered with.'),
    metadata: z
      .string()
      .max(64 * 1024)
      .optional()
      .describe("Given to the worker's job (`ctx.job.metadata`)."),
  })
  .meta({ id: 'AppRunLivekitAgent', description: "Palaver extension: a LiveKit Agents worker dispatched to the run's room." });
const LivekitAgents = z.array(AppRunLivekitAgent).max(8).describe("Palaver extension: LiveKit Agents workers dispatched to the run's room when it starts.");
const RunId = z.string().min(1).max(200);
const Recording = z
  .boolean()
  .optional()
  .describe(
    "Palaver extension (as a realtime session's `general.recording`): record both sides of the run (its humans on the left channel, the graph and " +
      'any LiveKit Agents worker on the right). Downloaded with `GET /v1/app/run/{run}/recording` once the run ended, deleted with the run. ' +
      'Never recorded unless true.',
  );

export const CreateAppRunRequest = z
  .object({
    app: Id.describe('Id of the app to run.'),
    run_id: RunId.optional(),
    publisher_metadata: FreeObject.optional().describe('Free-form metadata attached to the run.'),
    version: z.number().int().min(1).optional().describe('Version to run (the published one, else the newest, when omitted).'),
    overrides: Overrides.optional(),
    livekit_agents: LivekitAgents.optional(),
    recording: Recording,
  })
  .meta({ id: 'CreateAppRunRequest' });
export type CreateAppRunRequest = z.infer<typeof CreateAppRunRequest>;

export const CreateAppRunFromGraphRequest = z
  .object({
    graph: GraphInput,
    publisher_metadata: FreeObject.optional(),
    run_id: RunId.optional().describe('When a run with this id exists it is used and the graph is ignored.'),
    overrides: Overrides.optional(),
    livekit_agents: LivekitAgents.optional(),
    recording: Recording.describe('Palaver extension: see `CreateAppRunRequest.recording`.'),
  })
  .meta({ id: 'CreateAppRunFromGraphRequest' });
export type CreateAppRunFromGraphRequest = z.infer<typeof CreateAppRunFromGraphRequest>;

export const CreateAppRunResponse = z.object({ app_run: AppRun, connection_details: AppRunConnectionDetails }).meta({ id: 'CreateAppRunResponse' });
export type CreateAppRunResponse = z.infer<typeof CreateAppRunResponse>;

export const AppDebugRequest = z.object({ run_id: RunId }).meta({ id: 'AppDebugRequest' });
export type AppDebugRequest = z.infer<typeof AppDebugRequest>;

export const AppDebugResponse = z.object({ graph: FreeObject, connection_details: AppRunConnectionDetails }).meta({ id: 'AppDebugResponse' });
export type AppDebugResponse = z.infer<typeof AppDebugResponse>;

export const appRunRoutes = {
  create: defineRoute({
    operationId: 'appRuns.create',
    method: 'POST',
    path: '/v1/app/run',
    auth: 'K/B',
    tag: 'App runs',
    summary: 'Run an app',
    request: { body: CreateAppRunRequest },
    success: { kind: 'json', schema: CreateAppRunResponse },
    errors: [404, 409],
  }),
  createFromGraph: defineRoute({
    operationId: 'appRuns.createFromGraph',
    method: 'POST',
    path: '/v1/app/run_from_graph',
    auth: 'K/B',
    tag: 'App runs',
    summary: 'Run a graph without saving it as an app',
    request: { body: CreateAppRunFromGraphRequest },
    success: { kind: 'json', schema: CreateAppRunResponse },
    errors: [409],
  }),
  pushPadValue: defineRoute({
    operationId: 'appRuns.pushPadValue',
    method: 'POST',
    path: '/v1/app/run/{run}/push_pad_value',
    auth: 'K/B',
    tag: 'App runs',
    summary: 'Push a value into a node pad of a running app',
    request: { params: z.object({ run: Id }), body: AppRunNodePadValueParam },
    success: { kind: 'empty' },
    errors: [404],
  }),
  recording: defineRoute({
    operationId: 'appRuns.recording',
    method: 'GET',
    path: '/v1/app/run/{run}/recording',
    auth: 'K/B',
    tag: 'App runs',
    summary:
      'Download the recording of a run started with `recording: true` (Palaver extension): a 16 kHz 16-bit stereo WAV, the humans on the left channel, the graph and its workers on the right; 404 while the run goes on, without recording, or deleted',
    request: { params: z.object({ run: Id }) },
    success: { kind: 'binary', contentTypes: ['audio/wav'] },
    errors: [404],
  }),
  delete: defineRoute({
    operationId: 'appRuns.delete',
    method: 'DELETE',
    path: '/v1/app/run/{run}',
    auth: 'K/B',
    tag: 'App runs',
    summary: 'Delete an ended run and its recording (Palaver extension; 400 while the run goes on)',
    request: { params: z.object({ run: Id }) },
    success: { kind: 'empty' },
    errors: [404],
  }),
  debug: defineRoute({
    operationId: 'appRuns.debug',
    method: 'POST',
    path: '/v1/app/debug',
    auth: 'K/B',
    tag: 'App runs',
    summary: 'Attach a debugger to a run: its graph and connection details',
    request: { body: AppDebugRequest },
    success: { kind: 'json', schema: AppDebugResponse },
    errors: [404],
  }),
};
