/** A flag the user must fix (unknown, missing or out of range): reported without a stack trace. */
export class UsageError extends Error {}

function isUsageError(err: unknown): boolean {
  return err instanceof UsageError || String((err as { code?: unknown })?.code ?? '').startsWith('ERR_PARSE_ARGS_');
}

/**
 * Ends a command-line tool that failed: a usage error prints its message and the usage (exit 2); an
 * error of one of the `explained` kinds (say, a model folder that does not match the code) its message
 * alone (exit 1); anything else its stack, since that is a fault to report (exit 1).
 */
export function reportCliFailure(
  command: string,
  usage: string,
  err: unknown,
  explained: readonly (abstract new (...args: never[]) => Error)[] = [],
): void {
  if (isUsageError(err)) {
    process.stderr.write(`${command}: ${(err as Error).message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  if (explained.some((kind) => err instanceof kind)) {
    process.stderr.write(`${command}: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  process.stderr.write(`\n${command} failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exitCode = 1;
}

/** `--help` anywhere on the line: the usage goes to stdout and the tool does nothing else. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}
