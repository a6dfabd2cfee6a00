import { readdir, readFile, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as zlib from "node:zlib";
import { CheckpointError } from "./state.js";
import { failed, type PulumiRunner } from "./pulumi.js";

// Pulumi's file backend writes a checkpoint atomically (a temporary file, then a rename), but
// the metadata sidecar next to it (`<stack>.json.attrs`: content type and checksum) in place.
// A kill -9 between the two leaves the sidecar empty or cut short, and every command on the
// stack then fails with `failed to load checkpoint: EOF` though the checkpoint itself is whole.
// The backend reads a missing sidecar as default metadata, so removing the broken one is the
// whole repair.

/** The error Pulumi prints when it cannot read a stack's checkpoint (or its sidecar). */
export const UNREADABLE_CHECKPOINT = /failed to load checkpoint/i;

const CHECKPOINT_NAME = /^(.+)\.json(\.gz|\.zst)?$/;

/** A checkpoint file of the stack and the broken sidecar found next to it. */
export interface BrokenSidecar {
  checkpoint: string;
  sidecar: string;
}

/** The directory of a `file://` backend, or undefined for any other backend (their storage is not ours to touch). */
export function fileBackendDir(url: string): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const bare = url.replace(/\?.*$/, "");
  // Pulumi's own shorthand for the home directory.
  if (bare === "file://~" || bare.startsWith("file://~/")) return join(homedir(), bare.slice("file://~".length));
  return fileURLToPath(bare);
}

/** The backend URL the Pulumi CLI uses in `cwd` (PULUMI_BACKEND_URL, the project's, or the logged-in one). */
async function backendUrl(run: PulumiRunner, cwd: string): Promise<string> {
  const args = ["whoami", "--verbose", "--json"];
  const result = await run(args, cwd);
  if (result.code !== 0) throw failed(args, result);
  const url = (JSON.parse(result.stdout) as { url?: unknown }).url;
  return typeof url === "string" ? url : "";
}

async function isBrokenJson(file: string): Promise<boolean> {
  try {
    JSON.parse(await readFile(file, "utf8"));
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/**
 * The stack's checkpoint files whose sidecar does not parse. The stack's name may be qualified
 * (`org/project/stack`); its file lives under `.pulumi/stacks/<project>/` (or, in backends made
 * before projects were scoped, `.pulumi/stacks/`), so every project folder is looked in.
 */
export async function findBrokenSidecars(run: PulumiRunner, stack: string, cwd: string): Promise<BrokenSidecar[]> {
  const dir = fileBackendDir(await backendUrl(run, cwd));
  if (dir === undefined) return [];
  const parts = stack.split("/");
  const name = parts.at(-1)!;
  const project = parts.length === 3 ? parts[1] : undefined;
  const stacksDir = join(dir, ".pulumi", "stacks");
  const entries = await readdir(stacksDir, { withFileTypes: true }).catch(() => []);
  const folders = [stacksDir, ...entries.filter((e) => e.isDirectory() && (project === undefined || e.name === project)).map((e) => join(stacksDir, e.name))];
  const found: BrokenSidecar[] = [];
  for (const folder of folders) {
    for (const file of await readdir(folder).catch(() => [] as string[])) {
      if (CHECKPOINT_NAME.exec(file)?.[1] !== name) continue;
      const checkpoint = join(folder, file);
      if (await isBrokenJson(`${checkpoint}.attrs`)) found.push({ checkpoint, sidecar: `${checkpoint}.attrs` });
    }
  }
  return found;
}

export async function removeSidecars(broken: BrokenSidecar[]): Promise<void> {
  for (const b of broken) await rm(b.sidecar, { force: true });
}

/**
 * A checkpoint file read directly, in the form `pulumi stack export` prints (`{version, deployment}`),
 * for a look at a stack the CLI cannot load before anything is repaired.
 */
export async function readCheckpointFile(file: string): Promise<unknown> {
  let bytes: Buffer = await readFile(file);
  if (file.endsWith(".gz")) bytes = zlib.gunzipSync(bytes);
  if (file.endsWith(".zst")) {
    const unzstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
    if (!unzstd) throw new CheckpointError(`${file} is zstd-compressed and this Node.js cannot read it: run recover with --yes, or on Node.js 22.15 or later`);
    bytes = unzstd(bytes);
  }
  let parsed: { version?: unknown; checkpoint?: { latest?: unknown } };
  try {
    parsed = JSON.parse(bytes.toString("utf8")) as typeof parsed;
  } catch {
    throw new CheckpointError(`${file} is not a JSON checkpoint`);
  }
  return { version: parsed.version, deployment: parsed.checkpoint?.latest ?? {} };
}
