import { z } from 'zod';
import { App, AppList } from './apps.js';
import { Id } from './common.js';
import { defineRoute } from './define-route.js';

export const ApplyAppTemplateRequest = z.object({ name: z.string().min(1).max(200).describe('Name of the new app.') }).meta({ id: 'ApplyAppTemplateRequest' });
export type ApplyAppTemplateRequest = z.infer<typeof ApplyAppTemplateRequest>;

const params = z.object({ template: Id });

export const appTemplateRoutes = {
  list: defineRoute({
    operationId: 'appTemplates.list',
    method: 'GET',
    path: '/v1/app_template/list',
    auth: 'K/B',
    tag: 'App templates',
    summary: 'List app templates',
    success: { kind: 'json', schema: AppList },
  }),
  retrieve: defineRoute({
    operationId: 'appTemplates.retrieve',
    method: 'GET',
    path: '/v1/app_template/{template}',
    auth: 'K/B',
    tag: 'App templates',
    summary: 'Get an app template',
    request: { params },
    success: { kind: 'json', schema: App },
    errors: [404],
  }),
  apply: defineRoute({
    operationId: 'appTemplates.apply',
    method: 'POST',
    path: '/v1/app_template/{template}/apply',
    auth: 'K/B',
    tag: 'App templates',
    summary: 'Create an app from a template',
    request: { params, body: ApplyAppTemplateRequest },
    success: { kind: 'json', schema: App },
    errors: [404],
  }),
};
