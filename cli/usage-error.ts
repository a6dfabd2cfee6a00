/**
 * A command line that cannot be run; the caller prints the message and the usage. Its own module,
 * so that cli/args.ts (which dispatches to `import`'s parser) and cli/import/args.ts (which throws
 * it) both import it without importing each other.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}
