/**
 * System components some tests need. A missing component skips those tests with a printed reason,
 * except under CI=true, where it fails the run (the CI machine must have everything).
 */
export function requireComponent(name: string, available: boolean, reason: string): boolean {
  if (available) return true;
  if (process.env.CI === 'true') throw new Error(`Required component missing in CI: ${name} (${reason})`);
  console.warn(`[skip] ${name} unavailable: ${reason}`);
  return false;
}
