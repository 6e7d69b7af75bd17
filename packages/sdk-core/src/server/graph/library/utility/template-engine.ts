import type { Environment, Template } from 'nunjucks';
import { importOptional } from '../../../kernel/optional-package.js';

type Nunjucks = typeof import('nunjucks');
type Lookup = (this: unknown, ...args: unknown[]) => unknown;

/** Longest template rendered (characters). */
export const MAX_TEMPLATE_LENGTH = 100_000;
/** Most items `range()` makes, and the largest width or count the sizing filters take. */
export const MAX_TEMPLATE_ITEMS = 10_000;
/** Longest a render may take (ms): nested loops and recursive macros stop there instead of holding the process. */
export const MAX_RENDER_MS = 250;
/** Most loop iterations, assignments and macro calls one render makes. */
export const MAX_RENDER_STEPS = 1_000_000;
/** Longest text a render may produce (characters). */
export const MAX_RENDER_OUTPUT = 1_000_000;

/**
 * The running render's budget. Renders are synchronous, so one at a time runs in this process: the frame hook
 * below charges it on every loop iteration, assignment and macro argument (each sets a frame variable).
 */
const budget = { active: false, deadline: Number.POSITIVE_INFINITY, steps: 0 };

function chargeStep(): void {
  // Only our renders are charged (another user of nunjucks in this process is not).
  if (!budget.active) return;
  budget.steps += 1;
  if (budget.steps > MAX_RENDER_STEPS) throw new Error(`the template takes more than ${MAX_RENDER_STEPS} steps`);
  if ((budget.steps & 1023) === 0 && performance.now() > budget.deadline) throw new Error(`the template takes longer than ${MAX_RENDER_MS} ms to render`);
}

/** Members a template may not read: they lead from any value to the Function constructor or a prototype. */
const BLOCKED_MEMBERS = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
/** Names a template may not look up: every object's inherited members (`constructor` is `Object`). */
const BLOCKED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether a template variable may be named `name` (a property name a graph gives). */
export function isAllowedTemplateName(name: string): boolean {
  return !BLOCKED_NAMES.has(name) && !BLOCKED_MEMBERS.has(name);
}

/** The outcome of a render: the text, or why the template could not be rendered. */
export type RenderResult = { ok: true; text: string } | { ok: false; reason: string };

/** Renders Jinja-style templates (nunjucks, with its Jinja compatibility and the limits above). */
export interface TemplateRenderer {
  render(template: string, context: Record<string, unknown>): RenderResult;
}

const hardened = new WeakSet<object>();

/**
 * nunjucks is not a sandbox: `{{ range.constructor("return process")() }}` would run code on the server.
 * Templates come from graphs and from `push_value`, so lookups of members that reach a constructor or a
 * prototype answer undefined, and so do names inherited from `Object.prototype`. Installed once on the
 * package's runtime, which every template of this process shares (the Jinja compatibility is installed
 * first, as it replaces the same lookups).
 */
function harden(nunjucks: Nunjucks): void {
  if (hardened.has(nunjucks)) return;
  hardened.add(nunjucks);
  nunjucks.installJinjaCompat();
  const runtime = (nunjucks as unknown as { runtime: { memberLookup: Lookup; contextOrFrameLookup: Lookup; Frame: { prototype: { set: Lookup } } } }).runtime;
  const setVariable = runtime.Frame.prototype.set;
  runtime.Frame.prototype.set = function chargedSet(...args) {
    chargeStep();
    return setVariable.apply(this, args);
  };
  const memberLookup = runtime.memberLookup;
  runtime.memberLookup = function guardedMemberLookup(...args) {
    // Four arguments: a slice (`items[1:3]`), whose items are looked up again one by one.
    if (args.length !== 4) {
      const key = args[1];
      if (typeof key !== 'number' && typeof key !== 'string') return undefined;
      if (typeof key === 'string' && BLOCKED_MEMBERS.has(key)) return undefined;
    }
    return memberLookup.apply(this, args);
  };
  const contextOrFrameLookup = runtime.contextOrFrameLookup;
  runtime.contextOrFrameLookup = function guardedNameLookup(...args) {
    const name = args[2];
    if (typeof name === 'string' && BLOCKED_NAMES.has(name)) return undefined;
    return contextOrFrameLookup.apply(this, args);
  };
}

function bounded(value: unknown): unknown {
  return typeof value === 'number' && value > MAX_TEMPLATE_ITEMS ? MAX_TEMPLATE_ITEMS : value;
}

/** `range()` as nunjucks has it, refusing to make more than {@link MAX_TEMPLATE_ITEMS} items. */
function boundedRange(start: number, stop?: number, step?: number): number[] {
  const [from, to, by] = stop === undefined ? [0, start, 1] : [start, stop, step || 1];
  if (![from, to, by].every((part) => typeof part === 'number' && Number.isFinite(part))) throw new Error('range() takes numbers');
  const count = Math.max(0, Math.ceil((to - from) / by));
  if (count > MAX_TEMPLATE_ITEMS) throw new Error(`range() makes at most ${MAX_TEMPLATE_ITEMS} items`);
  return Array.from({ length: count }, (_, index) => from + index * by);
}

function environmentOf(nunjucks: Nunjucks): Environment {
  harden(nunjucks);
  const environment = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
  environment.addGlobal('range', boundedRange);
  // Filters that size their output by an argument take at most MAX_TEMPLATE_ITEMS.
  for (const [name, sizeArgument] of [
    ['center', 1],
    ['indent', 1],
    ['slice', 1],
    ['batch', 1],
  ] as const) {
    const filter = environment.getFilter(name);
    environment.addFilter(name, (...args: unknown[]): unknown => filter(...args.map((arg, index) => (index === sizeArgument ? bounded(arg) : arg))));
  }
  environment.addFilter('tojson', (value: unknown) => JSON.stringify(value ?? null));
  return environment;
}

function rendererOf(nunjucks: Nunjucks): TemplateRenderer {
  const environment = environmentOf(nunjucks);
  let compiled: { source: string; template: Template } | undefined;
  return {
    render(source, context) {
      if (source.length > MAX_TEMPLATE_LENGTH) return { ok: false, reason: `the template is longer than ${MAX_TEMPLATE_LENGTH} characters` };
      try {
        // Compiling sets frame variables too: the budget covers compiling and rendering.
        budget.active = true;
        budget.deadline = performance.now() + MAX_RENDER_MS;
        budget.steps = 0;
        if (compiled?.source !== source) compiled = { source, template: new nunjucks.Template(source, environment, undefined, true) };
        const text = compiled.template.render(context);
        if (text.length > MAX_RENDER_OUTPUT) return { ok: false, reason: `the template renders more than ${MAX_RENDER_OUTPUT} characters` };
        return { ok: true, text };
      } catch (error) {
        return { ok: false, reason: (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim() };
      } finally {
        budget.active = false;
        budget.deadline = Number.POSITIVE_INFINITY;
        budget.steps = 0;
      }
    },
  };
}

let loading: Promise<Nunjucks> | undefined;

/**
 * A Jinja-style template renderer, loading `nunjucks` on first use (a {@link MissingPackageError} names it
 * when it is not installed). Each renderer keeps its last compiled template.
 *
 * @example
 * const renderer = await templateRenderer();
 * renderer.render('Hello, {{ name }}!', { name: 'Ada' }); // { ok: true, text: 'Hello, Ada!' }
 */
export async function templateRenderer(): Promise<TemplateRenderer> {
  loading ??= importOptional('nunjucks', 'The Jinja2 template node', async () => {
    const module = (await import('nunjucks')) as Nunjucks & { default?: Nunjucks };
    return module.default ?? module;
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return rendererOf(await loading);
}
