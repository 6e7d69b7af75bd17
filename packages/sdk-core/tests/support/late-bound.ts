/**
 * A stand-in for a value a `beforeAll` hook creates later: every property read goes to the current value,
 * so a suite can declare `const test = useTestServer(kind)` once instead of a `let` assigned in a hook.
 * Reading it before the hook ran fails with the name of what is missing.
 *
 * @example
 * let client: PalaverClient | undefined;
 * beforeAll(() => { client = createClient({ apiKey }); });
 * const bound = lateBound('client', () => client);
 */
export function lateBound<T extends object>(name: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_placeholder, key) {
      const value = current();
      if (value === undefined) throw new Error(`${name} is read before the beforeAll hook that creates it ran`);
      const member: unknown = Reflect.get(value, key, value);
      // Methods run on the real object, so classes with private state keep working.
      return typeof member === 'function' ? member.bind(value) : member;
    },
  });
}
