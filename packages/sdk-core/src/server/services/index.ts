import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import type { Store } from '../store/database.js';
import { ApiKeyService } from './auth/api-keys.js';
import { ProjectService } from './auth/projects.js';
import type { ServerSecret } from './auth/server-secret.js';
import { UsageTokenService } from './auth/usage-tokens.js';
import { UsageLimitService } from './usage/usage-limits.js';
import { PersonaService } from './personas/persona-service.js';

export interface ServiceDependencies {
  store: Store;
  config: ServerConfig;
  logger: Logger;
  secret: ServerSecret;
}

/** The domain layer: one instance per server, shared by every request. */
export interface Services {
  store: Store;
  config: ServerConfig;
  logger: Logger;
  projects: ProjectService;
  apiKeys: ApiKeyService;
  usageTokens: UsageTokenService;
  usageLimits: UsageLimitService;
  personas: PersonaService;
}

export async function createServices(dependencies: ServiceDependencies): Promise<Services> {
  const { store, config, logger, secret } = dependencies;
  const apiKeys = new ApiKeyService(store);
  return {
    store,
    config,
    logger,
    apiKeys,
    projects: new ProjectService(store, apiKeys, secret.derive('settings-encryption')),
    usageTokens: new UsageTokenService(store, secret.derive('usage-token')),
    usageLimits: new UsageLimitService(store),
    personas: new PersonaService(store),
  };
}

/** Releases what services hold (timers, workers, connections). */
export async function closeServices(_services: Services): Promise<void> {}
