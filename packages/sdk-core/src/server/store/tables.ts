/**
 * Row types of every table. Timestamps are ISO 8601 strings (UTC, millisecond precision) so that they
 * sort the same in SQLite and PostgreSQL; booleans are 0/1 integers; JSON is text.
 */
export interface ProjectRow {
  id: string;
  name: string;
  created_at: string;
  disabled: number;
}

export interface ApiKeyRow {
  id: string;
  project: string;
  name: string;
  /** SHA-256 hex of the key; the key itself is never stored. */
  key_hash: string;
  /** First characters of the key, for display. */
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface UsageTokenRow {
  /** The token's `jti`. */
  id: string;
  project: string;
  human: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface UsageLimitRow {
  project: string;
  human: string;
  type: string;
  value: number;
  updated_at: string;
}

export interface SettingRow {
  key: string;
  value: string;
}

/**
 * Configuration-like resources (personas, scenarios, LLMs, tools, voices, secrets, contexts, apps...)
 * live in one document table keyed by `kind`; their fields are validated by the contract on the way in
 * and out. See docs/decisions/0003-document-table.md.
 */
export interface DocumentRow {
  kind: string;
  id: string;
  /** Null for global (built-in) documents. */
  project: string | null;
  human: string | null;
  /** Owning document (e.g. the app of an app version), when any. */
  parent: string | null;
  name: string | null;
  /** Space-delimited tag names with a leading and trailing space, for `tags` filters. */
  tags: string | null;
  data: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ContextMessageRow {
  id: string;
  context_id: string;
  project: string;
  human: string | null;
  role: string;
  /** JSON array of content parts. */
  content: string;
  /** JSON object with the optional fields (tool calls, speaking times, realtime session...). */
  extra: string;
  realtime_session: string | null;
  created_at: string;
}

export interface Database {
  projects: ProjectRow;
  api_keys: ApiKeyRow;
  usage_tokens: UsageTokenRow;
  usage_limits: UsageLimitRow;
  settings: SettingRow;
  documents: DocumentRow;
  context_messages: ContextMessageRow;
}
