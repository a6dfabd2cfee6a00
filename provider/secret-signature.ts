/**
 * How Pulumi marks a secret in a property value, in the protocol and in a checkpoint: an object
 * whose special signature key holds the secret signature. Its own module, with no imports, so
 * that the CLI (which never loads the protocol definitions) and the plugin share it.
 */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
