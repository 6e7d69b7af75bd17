import type { App } from '../../../contract/apps.js';
import type { StoredDocument } from '../../store/document-store.js';

/** Document kinds of this module. */
export const APP_KIND = 'app';
export const APP_VERSION_KIND = 'app_version';
export const APP_TEMPLATE_KIND = 'app_template';
export const SUBGRAPH_KIND = 'subgraph';

/** The app document: pointers only; the content lives in the version documents. */
export interface AppRecordData {
  newest: number;
  published: number | null;
}

/** One immutable version of an app. */
export interface AppVersionData {
  name: string;
  description: string;
  version: number;
  graph: Record<string, unknown>;
  inputs: unknown[] | Record<string, unknown> | null;
}

/** A graph with no nodes: the content of a new app or sub graph. */
export function emptyGraph(): Record<string, unknown> {
  return { nodes: [], portals: [] };
}

/**
 * Id of the document holding version `version` of `appId`. Deterministic, so two writers racing for the
 * same version collide on the primary key, and zero-padded, so ids sort in version order.
 */
export function versionDocumentId(appId: string, version: number): string {
  return `${appId}_v${String(version).padStart(10, '0')}`;
}

/** An app at one version, as the API shows it. */
export function toApp(appId: string, version: StoredDocument<AppVersionData>): App {
  return {
    id: appId,
    name: version.data.name,
    description: version.data.description,
    version: version.data.version,
    graph: version.data.graph,
    created_at: version.createdAt,
  };
}

/** A deep copy, so a clone never shares structure with its source. */
export function copyGraph(graph: Record<string, unknown>): Record<string, unknown> {
  return structuredClone(graph);
}
