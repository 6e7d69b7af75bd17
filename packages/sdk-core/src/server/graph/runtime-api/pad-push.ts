import { describeConstraints } from '../../../contract/graph/pad-constraints.js';
import { TRIGGER, clientPadValue, type ClientPadValue } from '../../../contract/graph/pad-values.js';
import { BadRequestError, NotFoundError } from '../../../errors/api-error.js';
import type { GraphRuntime } from '../runtime/graph-runtime.js';
import { PropertySinkPad, PropertySourcePad, RuntimeSinkPad, RuntimeSourcePad, type RuntimePad } from '../runtime/pads.js';
import { padValueFits } from '../validation/pad-value-check.js';

/** A pad of a run by node and pad id; 404 naming them when there is none. */
export function runPad(runtime: GraphRuntime, node: string, pad: string): RuntimePad {
  const found = runtime.pad(node, pad);
  if (!found) {
    if (!runtime.nodes.has(node)) throw new NotFoundError(`node '${node}' not found in this run`);
    throw new NotFoundError(`node '${node}' has no pad '${pad}'`);
  }
  return found;
}

/**
 * Pushes a plain value into a running graph's pad, as a client does: a property pad takes it as its value
 * (a sink as if its input sent it, a source passes it on), a stateless pad fires it (a trigger fires
 * whatever the value). 400 naming the node and pad when the value does not fit the pad's types.
 *
 * @example
 * pushPadValue(runtime, 'chat', 'output', 'Hello there');
 */
export function pushPadValue(runtime: GraphRuntime, node: string, padId: string, value: unknown): void {
  const pad = runPad(runtime, node, padId);
  const triggers = pad.types?.some((constraint) => constraint.type === 'trigger') ?? false;
  const given = triggers && (value === undefined || value === null || typeof value !== 'string' || pad.types?.length === 1) ? TRIGGER : value;
  if (given === undefined || !padValueFits(given, pad.types)) {
    throw new BadRequestError(
      `node '${node}' pad '${padId}': value ${JSON.stringify(value)?.slice(0, 80) ?? 'undefined'} is not of type ${describeConstraints(pad.types)}`,
    );
  }
  if (pad instanceof RuntimeSourcePad) pad.push(given);
  else if (pad instanceof RuntimeSinkPad) pad.receive(given);
}

/** The value of a property pad for a client; 400 for stateless pads. */
export function readPadValue(runtime: GraphRuntime, node: string, padId: string): ClientPadValue {
  const pad = runPad(runtime, node, padId);
  if (!(pad instanceof PropertySinkPad || pad instanceof PropertySourcePad))
    throw new BadRequestError(`node '${node}' pad '${padId}' is not a property pad: it holds no value`);
  return clientPadValue(pad.value, pad.types) ?? null;
}
