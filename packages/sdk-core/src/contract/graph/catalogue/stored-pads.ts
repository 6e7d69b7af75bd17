import type { GraphNode, GraphPad, PadKind } from '../graph-document.js';
import type { PadSpec } from '../node-spec.js';
import { plainPadValue } from '../pad-value-functions.js';

/** A pad of a stored node by id. */
export function storedPad(node: GraphNode, id: string): GraphPad | undefined {
  return node.pads.find((pad) => pad.id === id);
}

/** The plain value of a stored pad, or undefined. */
export function storedValue(node: GraphNode, id: string): unknown {
  return plainPadValue(storedPad(node, id)?.value);
}

/** Whether a stored pad is a property pad (a pass-through fed by a property becomes one). */
export function storedAsProperty(node: GraphNode, id: string): boolean {
  const kind: PadKind | undefined = storedPad(node, id)?.type;
  return kind === 'PropertySinkPad' || kind === 'PropertySourcePad';
}

/** The enum options a stored pad's types name (`allowed_types` as the editor resolved them), or []. */
export function storedEnumOptions(pad: GraphPad | undefined): string[] {
  const options = (pad?.allowed_types ?? pad?.default_allowed_types ?? []).flatMap((constraint) =>
    constraint.type === 'enum' ? (constraint.options ?? []) : [],
  );
  return [...new Set(options.filter((option): option is string => typeof option === 'string' && option !== ''))];
}

/** `spec` as a property pad (`StatelessSinkPad` -> `PropertySinkPad`) holding `value`, or as stateless. */
export function withKind(spec: PadSpec, property: boolean, value: unknown = null): PadSpec {
  const sink = spec.kind === 'PropertySinkPad' || spec.kind === 'StatelessSinkPad';
  if (property) return { ...spec, kind: sink ? 'PropertySinkPad' : 'PropertySourcePad', default: value };
  const { default: _unused, ...rest } = spec;
  return { ...rest, kind: sink ? 'StatelessSinkPad' : 'StatelessSourcePad' };
}
