import { DECLARATIONS } from "../../../provider/kinds/index.js";
import type { Kind } from "../kinds.js";
import type { Selection } from "../model.js";
import type { Tenant } from "../tenant.js";
import { mapInstance, terraformTypes } from "../../../provider/terraform/mapping.js";
import type { StateInstance } from "./state.js";

/**
 * A Terraform state as the tenant an import writes a program of: each `streamkap_*` instance read
 * through the mapping into the object its kind's import takes (what the API would list), its
 * secrets kept apart (by kind, id and key) for the stack's config, and identifiers made from
 * the addresses. What the state holds that pulumi-cdc does not carry is said per address.
 */

export interface StateTenant {
  tenant: Tenant;
  /** The address of each adopted object, by `kind\0id`. */
  addresses: Map<string, StateInstance>;
  label: NonNullable<Selection["label"]>;
  secretValue: NonNullable<Selection["secretValue"]>;
  /** Instances that are not adopted, and attributes not carried, each by address and name. */
  warnings: string[];
  /** Instances of a `streamkap_*` type nothing maps, and attributes nothing maps: reported, never dropped. */
  unmapped: string[];
}

/** `module.a.streamkap_source_postgresql.orders[2]` → `a-orders-2`: what the Pulumi identifier is made from. */
export function addressLabel(address: string): string {
  const parts: string[] = [];
  const re = /module\.([A-Za-z0-9_-]+)(\[[^\]]*\])?\./gy;
  let m: RegExpExecArray | null;
  let rest = address;
  while ((m = re.exec(address))) {
    parts.push(m[1]!, ...(m[2] ? [m[2].slice(1, -1).replace(/"/g, "")] : []));
    rest = address.slice(re.lastIndex);
  }
  const r = /^[^.]+\.([^[]+)(?:\[(.*)\])?$/.exec(rest);
  if (r) parts.push(r[1]!, ...(r[2] !== undefined ? [r[2].replace(/"/g, "")] : []));
  return parts.join("-");
}

export function stateTenant(instances: readonly StateInstance[]): StateTenant {
  const types = terraformTypes();
  const listed = new Map<string, unknown[]>();
  const addresses = new Map<string, StateInstance>();
  const secrets = new Map<string, Map<string, string>>();
  const warnings: string[] = [];
  const unmapped: string[] = [];
  for (const inst of instances) {
    if (!inst.type.startsWith("streamkap_")) continue;
    const t = types.get(inst.type);
    if (!t) {
      unmapped.push(`${inst.address}: the resource type ${inst.type} has no pulumi-cdc kind: not adopted, and not in the handover`);
      continue;
    }
    const mapped = mapInstance(t, inst.attributes);
    if (!mapped) {
      warnings.push(`${inst.address}: the state holds no id for it (never created?): not adopted`);
      continue;
    }
    const k = `${t.kind}\0${mapped.id}`;
    const seen = addresses.get(k);
    if (seen) {
      warnings.push(`${inst.address}: the same ${t.kind} (${mapped.id}) as ${seen.address}: adopted once, as ${seen.address}`);
      continue;
    }
    addresses.set(k, inst);
    listed.set(t.kind, [...(listed.get(t.kind) ?? []), mapped.live]);
    if (mapped.secrets.size > 0) secrets.set(k, mapped.secrets);
    for (const d of mapped.dropped) warnings.push(`${inst.address}: ${d.attribute} is not carried over: ${d.why}`);
    for (const a of mapped.unmapped) unmapped.push(`${inst.address}: the attribute ${a} has no pulumi-cdc property: not carried over`);
  }
  const read = DECLARATIONS.filter((d) => "imported" in d).map((d) => d.name);
  const tenant = { ...Object.fromEntries(read.map((name) => [name, listed.get(name) ?? []])), notes: [] } as unknown as Tenant;
  return {
    tenant,
    addresses,
    label: (kind: Kind, id: string) => {
      const inst = addresses.get(`${kind}\0${id}`);
      return inst ? addressLabel(inst.address) : undefined;
    },
    secretValue: (kind: Kind, id: string, key: string) => secrets.get(`${kind}\0${id}`)?.get(key),
    warnings,
    unmapped,
  };
}

/** Single quotes for a shell, as a user pastes the command. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The handover: a Terraform file with one `removed` block per adopted resource (Terraform 1.7
 * and later; `from` takes a resource's address without an instance key, so a `count` or
 * `for_each` resource has one block for all its instances), and the `terraform state rm`
 * commands that do the same on an older Terraform.
 */
export function handover(adopted: readonly StateInstance[]): { file: string; stateRm: string[] } {
  const resources = [...new Set(adopted.map((i) => i.resource))].sort();
  const blocks = resources.map((r) => `removed {\n  from = ${r}\n\n  lifecycle {\n    destroy = false\n  }\n}\n`);
  const file = [
    "# Written by `pulumi-cdc import --from-terraform`: Terraform forgets these resources without",
    "# destroying them (pulumi-cdc manages them now). Delete their resource blocks, add this file,",
    "# and run `terraform apply`: it makes no API call. Needs Terraform 1.7 or later.",
    "",
    blocks.join("\n"),
  ].join("\n");
  return { file, stateRm: [...new Set(adopted.map((i) => i.address))].sort().map((a) => `terraform state rm ${shellQuote(a)}`) };
}
