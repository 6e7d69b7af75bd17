import type { appTemplateRoutes } from '../app-templates.js';
import type { GroupExamples } from './route-example.js';
import { at, ids, sampleApp, sampleTemplate } from './sample-resources.js';

export const appTemplateExamples: GroupExamples<typeof appTemplateRoutes> = {
  list: { response: [sampleTemplate] },
  retrieve: { params: { template: ids.template }, response: sampleTemplate },
  apply: {
    params: { template: ids.template },
    body: { name: 'My echo' },
    response: { ...sampleApp, name: 'My echo', description: sampleTemplate.description, version: 1, created_at: at(21) },
  },
};
