import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";

/**
 * The three forms `pulumi-cdc import --from-terraform` reads: a terraform.tfstate (format
 * version 4), the JSON of `terraform show -json`, or a Terraform working directory (then it runs
 * `terraform show -json` there). Each gives the managed resources' instances with their
 * addresses, as Terraform writes them.
 */

export interface StateInstance {
  /** `module.a.streamkap_source_postgresql.orders[2]`. */
  address: string;
  /** The resource's address without the instance key: what a `removed` block's `from` takes. */
  resource: string;
  type: string;
  attributes: Record<string, unknown>;
}

/** The input is not a state pulumi-cdc reads: the message names the file, the field and the fix. */
export class TerraformInputError extends Error {}

/** Runs `terraform show -json` in a directory; injectable for tests. */
export type TerraformShow = (dir: string) => Promise<string>;

export const terraformShow: TerraformShow = (dir) =>
  new Promise((resolve, reject) => {
    execFile("terraform", ["show", "-json", "-no-color"], { cwd: dir, maxBuffer: 512 * 1024 * 1024, timeout: 10 * 60_000, env: { ...process.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" } }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === "ENOENT") {
        reject(new TerraformInputError(`${dir} is a directory, and reading its state needs terraform, which is not on PATH: install terraform, or run \`terraform show -json > state.json\` where it is and pass state.json`));
      } else if (error) {
        const lines = String(stderr).split("\n").map((l) => l.replace(/^[│╷╵\s]+/, "").trim()).filter((l) => l !== "");
        const errors = lines.filter((l) => /^Error/.test(l));
        reject(new TerraformInputError(`\`terraform show -json\` failed in ${dir}: ${(errors.length > 0 ? errors : lines).slice(0, 3).join(" ") || error.message}`));
      } else resolve(String(stdout));
    });
  });

/** An address without its instance keys (a module's too): what a `removed` block's `from` takes. */
export const withoutKeys = (address: string) => address.replace(/\[(?:"(?:[^"\\]|\\.)*"|[^\]"]*)\]/g, "");

const key = (k: unknown) => (typeof k === "number" ? `[${k}]` : `[${JSON.stringify(k)}]`);

/** Instances of a terraform.tfstate of format version 4. */
function fromStateFile(state: Record<string, unknown>, file: string): StateInstance[] {
  if (!Array.isArray(state.resources)) throw new TerraformInputError(`${file}: "resources" is missing or not a list: not a Terraform state of format version 4`);
  const out: StateInstance[] = [];
  for (const [i, r] of (state.resources as Record<string, unknown>[]).entries()) {
    if (r.mode !== "managed") continue;
    if (typeof r.type !== "string" || typeof r.name !== "string" || !Array.isArray(r.instances)) {
      throw new TerraformInputError(`${file}: resources[${i}] has no type, name or instances: the state is damaged; run \`terraform show -json > state.json\` and pass that instead`);
    }
    const module = typeof r.module === "string" && r.module !== "" ? `${r.module}.` : "";
    const resource = `${withoutKeys(module)}${r.type}.${r.name}`;
    for (const inst of r.instances as Record<string, unknown>[]) {
      if (inst.deposed !== undefined) continue;
      out.push({ address: `${module}${r.type}.${r.name}${inst.index_key !== undefined ? key(inst.index_key) : ""}`, resource, type: r.type, attributes: (inst.attributes as Record<string, unknown>) ?? {} });
    }
  }
  return out;
}

/** Instances of `terraform show -json`'s output, through its module tree. */
function fromShowJson(shown: Record<string, unknown>, file: string): StateInstance[] {
  const values = shown.values as { root_module?: unknown } | undefined;
  // An empty state shows no values at all.
  if (values === undefined) return [];
  const out: StateInstance[] = [];
  const walk = (module: Record<string, unknown>, path: string) => {
    for (const r of (module.resources as Record<string, unknown>[] | undefined) ?? []) {
      if (r.mode !== "managed") continue;
      if (typeof r.address !== "string" || typeof r.type !== "string") throw new TerraformInputError(`${file}: a resource of ${path} has no address or type: not the output of \`terraform show -json\``);
      out.push({ address: r.address, resource: withoutKeys(r.address), type: r.type, attributes: (r.values as Record<string, unknown>) ?? {} });
    }
    for (const child of (module.child_modules as Record<string, unknown>[] | undefined) ?? []) walk(child, String(child.address ?? "a child module"));
  };
  if (!values.root_module || typeof values.root_module !== "object") throw new TerraformInputError(`${file}: "values.root_module" is missing: not the output of \`terraform show -json\``);
  walk(values.root_module as Record<string, unknown>, "the root module");
  return out;
}

/** Reads a state's text (`file` names it in errors): a tfstate of version 4, or `terraform show -json`'s output. */
export function parseTerraformState(text: string, file: string): StateInstance[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TerraformInputError(`${file} is not JSON (${(error as Error).message}): pass a terraform.tfstate, the output of \`terraform show -json\`, or a Terraform working directory`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new TerraformInputError(`${file} is not a JSON object: pass a terraform.tfstate or the output of \`terraform show -json\``);
  const o = data as Record<string, unknown>;
  if ("format_version" in o) return fromShowJson(o, file);
  if ("version" in o) {
    if (o.version !== 4) throw new TerraformInputError(`${file}: "version" is ${JSON.stringify(o.version)}, and pulumi-cdc reads state format version 4 (Terraform 0.12 and later): upgrade the state with a current terraform, or pass the output of \`terraform show -json\``);
    return fromStateFile(o, file);
  }
  throw new TerraformInputError(`${file} has neither "version" (a terraform.tfstate) nor "format_version" (\`terraform show -json\`): pass one of those, or a Terraform working directory`);
}

/** Reads a file or a working directory (through `show`). */
export async function readTerraformInput(path: string, show: TerraformShow = terraformShow): Promise<{ instances: StateInstance[]; from: string }> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new TerraformInputError(`--from-terraform ${path}: no such file or directory: pass a terraform.tfstate, the output of \`terraform show -json\`, or a Terraform working directory`);
  if (info.isDirectory()) return { instances: parseTerraformState(await show(path), `\`terraform show -json\` in ${path}`), from: `the state of the Terraform working directory ${path}` };
  return { instances: parseTerraformState(await readFile(path, "utf8"), path), from: path };
}
