/**
 * What `pnpm start` tells a new user when it cannot start: one line naming the setting to change, never a stack
 * trace. Ports come from environment variables; a bad value or a port in use is the usual first-run problem.
 */

/** A problem the user fixes (a setting), said in one line. */
export class StartProblem extends Error {
  override name = 'StartProblem';
}

/**
 * A port from `variable` (default `fallback`): an integer 0-65535, else a {@link StartProblem}.
 *
 * @example
 * const port = portFrom('PALAVER_DEMO_PORT', 3000); // 3000, or the variable's value
 */
export function portFrom(variable: string, fallback: number, environment: NodeJS.ProcessEnv = process.env): number {
  const raw = environment[variable];
  if (raw === undefined || raw.trim() === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new StartProblem(`${variable}=${raw} is not a port: use a whole number from 0 to 65535 (0 picks a free one)`);
  }
  return port;
}

/**
 * Runs `listen`, turning "address in use" and "permission denied" into a {@link StartProblem} that names the
 * variable to change.
 */
export async function listenOn<T>(what: string, port: number, variable: string, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new StartProblem(`port ${port} (${what}) is already in use: stop what uses it, or set ${variable} to another port (0 picks a free one)`);
    if (code === 'EACCES') throw new StartProblem(`port ${port} (${what}) needs privileges: set ${variable} to a port above 1023`);
    throw error;
  }
}

/** The one line to print for an error at start: a {@link StartProblem} or a configuration error as is, else its message. */
export function startProblemLine(error: unknown): string {
  if (error instanceof Error) return `palaver: ${error.message.split('\n')[0]}`;
  return `palaver: ${String(error)}`;
}
