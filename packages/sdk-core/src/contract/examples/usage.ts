import type { usageRoutes } from '../usage.js';
import type { GroupExamples } from './route-example.js';
import { ids } from './sample-resources.js';

/** A usage token as minted (a JWT signed by the server; this one is shortened). */
const token =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJwcmoiOiJwcm9qZWN0X2RldiIsInN1YiI6InVzZXItNDIiLCJpc3MiOiJwYWxhdmVyIiwiYXVkIjoicGFsYXZlci1hcGkifQ.ZNSgGiZ8EymQBDRPEo-ijkxBU_GZIv2Tu9zd-KXZs7k';

export const usageExamples: GroupExamples<typeof usageRoutes> = {
  createToken: { body: { human: ids.human, ttl_seconds: 3600 }, response: { token } },
  updateLimits: {
    body: { human: ids.human, limits: [{ type: 'conversational_seconds', value: 1800 }] },
    response: {},
  },
  updateTtl: { body: { human: ids.human, ttl_seconds: 600 } },
  checkToken: { body: { human: ids.human }, response: { ttl_seconds: 3412 } },
  revokeToken: { body: { human: ids.human } },
  limits: {
    description: 'For the human named by `x-human-id` (API key) or the usage token.',
    human: ids.human,
    response: [{ type: 'conversational_seconds', value: 1800 }],
  },
};
