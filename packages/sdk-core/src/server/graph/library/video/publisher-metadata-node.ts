import type { RoomParticipant } from '../../../engines/media/index.js';
import type { NodeImplementation, RuntimeNode } from '../../runtime/graph-node.js';

/** The participant a value came from, when it says (media packets and clips carry their origin). */
function originOf(value: unknown): string | undefined {
  const origin = (value as { origin?: unknown } | null)?.origin;
  return typeof origin === 'string' ? origin : undefined;
}

/** A participant's metadata as key/value pairs: its metadata when that is a JSON object, then its attributes over it. */
function participantMetadata(participant: RoomParticipant): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = participant.metadata ? JSON.parse(participant.metadata) : undefined;
  } catch {
    parsed = undefined;
  }
  const base = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { ...base, ...participant.attributes };
}

function metadataFor(node: RuntimeNode, value: unknown): Record<string, unknown> | undefined {
  const origin = originOf(value);
  const participant = origin ? node.environment.room?.participants().find((candidate) => candidate.identity === origin) : undefined;
  return participant ? participantMetadata(participant) : node.environment.publisherMetadata;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * PublisherMetadata: every value of `sink` on to `source`; before it, `value` becomes the `key` of the metadata of the
 * participant who published it (their metadata JSON and attributes), or of the run's publisher metadata for values
 * that no participant sent ('' when the key is absent).
 */
export const publisherMetadataNode: NodeImplementation = async (node, signal) => {
  const value = node.propertySource('value');
  for await (const item of node.sink('sink')) {
    if (signal.aborted) break;
    const key = node.value('key');
    const found = typeof key === 'string' && key !== '' ? asText(metadataFor(node, item)?.[key]) : '';
    if (value.value !== found) value.push(found);
    node.source('source').push(item);
  }
};
