import { coreMigration } from './0001-core.js';
import { creditsUsageWebhooksMigration } from './0006-credits-usage-webhooks.js';
import { chatAudioMigration } from './0007-chat-audio.js';
import { contextMemoryMigration } from './0008-context-memory.js';
import { sessionLeasesMigration } from './0009-session-leases.js';
import { leaseKindsMigration } from './0010-lease-kinds.js';
import { reservationOwnersMigration } from './0011-reservation-owners.js';
import { responsesMigration } from './0012-responses.js';
import { sipMigration } from './0013-sip.js';
import { realtimeRecordingsMigration } from './0014-realtime-recordings.js';
import type { Migration } from './migration.js';

/** Every migration, in order. Append new ones; never edit a released one. */
export const migrations: Migration[] = [
  coreMigration,
  creditsUsageWebhooksMigration,
  chatAudioMigration,
  contextMemoryMigration,
  sessionLeasesMigration,
  leaseKindsMigration,
  reservationOwnersMigration,
  responsesMigration,
  sipMigration,
  realtimeRecordingsMigration,
];
