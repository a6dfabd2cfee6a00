/**
 * The plugin's launchers, one per OS family: each finds Node.js on PATH, says in one line which
 * version the plugin needs when there is none, and runs dist/plugin/main.js, whose first import
 * (provider/node-version.ts) refuses an older Node.js with the same kind of line.
 */
export function posixLauncher(minNode: string): string {
  return `#!/bin/sh
# pulumi-cdc's provider plugin: needs Node.js >= ${minNode} on PATH.
case "$0" in */*) here="\${0%/*}" ;; *) here=. ;; esac
if ! command -v node >/dev/null 2>&1; then
  echo "pulumi-resource-cdc needs Node.js >= ${minNode} on PATH, and there is no node: install Node.js ${minNode} or newer" >&2
  exit 1
fi
exec node "$here/dist/plugin/main.js" "$@"
`;
}

export function windowsLauncher(minNode: string): string {
  return [
    "@echo off",
    `rem pulumi-cdc's provider plugin: needs Node.js >= ${minNode} on PATH.`,
    "where node >nul 2>nul",
    "if errorlevel 1 (",
    `  echo pulumi-resource-cdc needs Node.js ^>= ${minNode} on PATH, and there is no node: install Node.js ${minNode} or newer 1>&2`,
    "  exit /b 1",
    ")",
    'node "%~dp0dist\\plugin\\main.js" %*',
    "",
  ].join("\r\n");
}
