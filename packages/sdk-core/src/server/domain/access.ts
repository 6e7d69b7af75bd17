import { NotFoundError, PermissionDeniedError } from '../../errors/api-error.js';
import type { AccessScope, StoredDocument } from '../store/document-store.js';
import type { Principal } from '../kernel/principal.js';

/** What a principal may see: its project, and when scoped to a human, that human's objects and shared ones. */
export function scopeOf(principal: Principal, options: { includeGlobal?: boolean } = {}): AccessScope {
  return { project: principal.project, human: principal.human, includeGlobal: options.includeGlobal ?? false };
}

/** The human a new object is created under: the token's human or the `x-human-id` of an API key call. */
export function ownerOf(principal: Principal): string | null {
  return principal.human;
}

/** Throws 404 naming the resource when `document` is undefined. */
export function found<T>(document: T | undefined, resource: string, id: string): T {
  if (document === undefined) throw new NotFoundError(`${resource} '${id}' not found`);
  return document;
}

/**
 * Object-level write check: API keys write anything in their project; a human-scoped caller writes only
 * its own human's objects; built-in (global) objects are read-only for everyone.
 */
export function assertWritable(document: StoredDocument<unknown>, principal: Principal, resource: string): void {
  if (document.project === null) throw new PermissionDeniedError(`${resource} '${document.id}' is built in and cannot be changed`);
  if (principal.human !== null && document.human !== principal.human) {
    throw new PermissionDeniedError(`${resource} '${document.id}' is shared by the project; only an API key without x-human-id can change it`);
  }
}
