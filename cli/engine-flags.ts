/**
 * What every `pulumi` command runs with: never a prompt (there is no one to answer in CI), no
 * colour codes in the text we quote. A module with no imports, so the scripts (some run under
 * ts-node) share it too.
 */
export const ENGINE_FLAGS = ["--non-interactive", "--color", "never"] as const;
