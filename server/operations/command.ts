import { ConfigError } from '../config';

export const say = (line: string) => process.stderr.write(`shinobu: ${line}\n`);

/**
 * Runs an operations command: its refusals (ConfigError) are printed one per line as a
 * start's are, anything else with its stack; either exits with status 1.
 */
export function runCommand(command: () => Promise<void>): void {
  command().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) say(problem);
    } else {
      say(`failed: ${(error as Error).stack ?? String(error)}`);
    }
    process.exit(1);
  });
}
