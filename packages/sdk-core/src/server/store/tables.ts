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

/** A 64-bit integer column: PostgreSQL's `bigint` answers strings, SQLite numbers; read with `Number()`. */
export type Int64 = number | string;

export interface CreditRow {
  id: string;
  project: string;
  name: string;
  description: string;
  allow_negative_balance: number;
  created_at: string;
}

/** One row per (credit, human): the row locked while an entry is written; `balance` = sum of the entries. */
export interface CreditBalanceRow {
  credit: string;
  human: string;
  balance: Int64;
  /** Number of entries so far; the latest entry has `sequence = entry_count`. */
  entry_count: Int64;
  updated_at: string;
}

export interface CreditLedgerEntryRow {
  id: string;
  credit: string;
  project: string;
  human: string;
  /** 1, 2, 3... per (credit, human). */
  sequence: Int64;
  amount: Int64;
  balance: Int64;
  idempotency_key: string;
  created_at: string;
}

export interface UsageRecordRow {
  id: string;
  project: string;
  human: string | null;
  type: string;
  value: number;
  /** JSON object. */
  metadata: string;
  created_at: string;
}

/** Running total per (project, human, type), so limit checks never sum the records. */
export interface UsageCounterRow {
  project: string;
  human: string;
  type: string;
  used: number;
  updated_at: string;
}

/** Usage promised to an in-flight request (a stream); expired rows count for nothing. */
export interface UsageReservationRow {
  id: string;
  project: string;
  human: string;
  type: string;
  amount: number;
  expires_at: string;
  created_at: string;
  /** The instance holding it (its `instance` lease); null for reservations made without one. */
  instance: string | null;
  /** What its request used so far (a stream metered as it goes), recorded if its instance dies; null before. */
  used: number | null;
  /** The usage record's metadata (JSON) that goes with `used`. */
  metadata: string | null;
}

export interface WebhookEndpointRow {
  id: string;
  project: string;
  url: string;
  /** The signing secret, sealed with the server key (services/auth/encryption.ts). */
  secret_sealed: string;
  enabled: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The outbox: one row per event, written in the transaction of the change that caused it. */
export interface WebhookEventRow {
  id: string;
  project: string;
  type: string;
  /** The WebhookMessage body as JSON. */
  body: string;
  created_at: string;
}

export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  project: string;
  /** `pending`, `delivering` (claimed, under lease), `delivered`, `failed`. */
  status: string;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptRow {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/** Speech of a chat completion, served at `/v1/chat/audio/{id}` until it expires. */
export interface ChatAudioRow {
  /** 128 random bits (base64url): the id is the credential. */
  id: string;
  project: string;
  human: string | null;
  content_type: string;
  audio: Uint8Array;
  expires_at: string;
  created_at: string;
}

/** The recording of a realtime session (migration 0014): both sides, served until the session is deleted. */
export interface RealtimeRecordingRow {
  session_id: string;
  project: string;
  content_type: string;
  channels: number;
  sample_rate: number;
  duration_ms: number;
  audio: Uint8Array;
  created_at: string;
}

/** An entity of a context's advanced memory graph (migration 0008). */
export interface MemoryNodeRow {
  id: string;
  context_id: string;
  project: string;
  name: string;
  /** The normalised name (lower case, no leading article), unique per context. */
  name_key: string;
  /** The node's currently valid facts, derived on each ingestion. */
  summary: string;
  created_at: string;
  updated_at: string;
}

/** A fact between two memory nodes; invalidated (never deleted) when a later message contradicts it. */
export interface MemoryEdgeRow {
  id: string;
  context_id: string;
  project: string;
  source_node: string;
  target_node: string;
  relation: string;
  fact: string;
  /** The message the fact was extracted from. */
  message_id: string;
  created_at: string;
  updated_at: string;
  invalidated_at: string | null;
}

/** The lease of the instance hosting a realtime session's agent (or, by `kind`, an app run). */
export interface SessionLeaseRow {
  session_id: string;
  /** `realtime_session`, `app_run`, or `instance` (a server instance's own lease: its usage reservations). */
  kind: string;
  project: string;
  instance: string;
  expires_at: string;
}

/** A stored response of the Responses API (migration 0012, decision 0096). */
export interface ResponseRow {
  id: string;
  project: string;
  /** The caller's human; null for a project-wide API key call. Only the same (project, human) reads it. */
  human: string | null;
  previous_response_id: string | null;
  /** JSON: the response object as answered. */
  body: string;
  created_at: string;
  expires_at: string;
}

/** One input item of a stored response, in the order it was given. */
export interface ResponseItemRow {
  response_id: string;
  position: number;
  id: string;
  /** JSON: the item as `input_items` lists it. */
  data: string;
}

/** A LiveKit SIP trunk (migration 0013): the protocol message as JSON, owned by a project. */
export interface SipTrunkRow {
  id: string;
  project: string;
  /** `inbound` (`SIPInboundTrunkInfo`) or `outbound` (`SIPOutboundTrunkInfo`). */
  direction: 'inbound' | 'outbound';
  /** JSON: the trunk as LiveKit's protocol writes it (`toJson()`). */
  body: string;
  created_at: string;
  updated_at: string;
}

/** A LiveKit SIP dispatch rule (migration 0013): `SIPDispatchRuleInfo` as JSON, owned by a project. */
export interface SipDispatchRuleRow {
  id: string;
  project: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  projects: ProjectRow;
  api_keys: ApiKeyRow;
  usage_tokens: UsageTokenRow;
  usage_limits: UsageLimitRow;
  settings: SettingRow;
  documents: DocumentRow;
  context_messages: ContextMessageRow;
  credits: CreditRow;
  credit_balances: CreditBalanceRow;
  credit_ledger_entries: CreditLedgerEntryRow;
  usage_records: UsageRecordRow;
  usage_counters: UsageCounterRow;
  usage_reservations: UsageReservationRow;
  webhook_endpoints: WebhookEndpointRow;
  webhook_events: WebhookEventRow;
  webhook_deliveries: WebhookDeliveryRow;
  webhook_attempts: WebhookAttemptRow;
  chat_audio: ChatAudioRow;
  realtime_recordings: RealtimeRecordingRow;
  memory_nodes: MemoryNodeRow;
  memory_edges: MemoryEdgeRow;
  session_leases: SessionLeaseRow;
  responses: ResponseRow;
  response_items: ResponseItemRow;
  sip_trunks: SipTrunkRow;
  sip_dispatch_rules: SipDispatchRuleRow;
}
