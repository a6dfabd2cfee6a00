import { z } from "zod";
import { knowable } from "../check.js";
import { MASK } from "../normalize.js";
import type { LiveChain, TypedInstance } from "../smt/api.js";
import { entryAsProgram, liveEntries, TRANSFORMS_REQUIRED } from "../smt/entries.js";
import type { DestinationConnector } from "../client/schemas.js";
import { connectorTags } from "./connector.js";
import type { ImportContext, TenantObjects, Value } from "./imported.js";
import { declareInputs } from "./inputs.js";
import { smtSecretPaths } from "./smt-secrets.js";
import type { KindSpec } from "./spec.js";

/** The inputs' outer shape; each entry of `transforms` is checked against the SMT catalogue (provider/smt/entries.ts). */
const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  destination: {
    type: "string",
    ts: { input: "Destination | pulumi.Input<string>", convert: "idOf" },
    replaceOnChange: true,
    description: "The id of the destination whose chain this is (a `Destination`'s id). Changing it replaces the resource: the old destination's chain is emptied.",
    check: knowable(z.string({ error: "is required: a Destination resource, or the id of a destination" }).min(1, { error: "must not be empty: a destination's id" })),
  },
  transforms: {
    type: { arrayOf: { object: "cdc:index:SmtTransform" } },
    ts: { type: "SmtTransformArgs", output: "SmtTransform[]", convert: "smtSecrets" },
    description: "The destination's user chain, in the order the connector runs it; `[]` for none. The platform's own managed transforms are not part of it.",
    check: z.array(z.unknown(), { error: TRANSFORMS_REQUIRED }),
  },
});

const NOUN = "SMT chain";

/** A destination's chain as an import reads it, when it holds any entry. */
export interface ImportedChain {
  destinationId: string;
  chain: LiveChain;
}

/** A chain goes where its destination goes: named and tagged as it is. */
function chains(listed: readonly ImportedChain[], tenant: TenantObjects) {
  const destinations = tenant.Destination as readonly DestinationConnector[];
  return listed.flatMap((c) => {
    const d = destinations.find((x) => x.id === c.destinationId);
    return d ? [{ id: c.destinationId, name: d.name ?? "", tagIds: connectorTags(d), live: c.chain }] : [];
  });
}

/**
 * A destination's chain as a program sets it: each entry as the SDK types it (SmtTransformArgs).
 * A secret the platform holds is written as the mask, as the kind's own import writes it
 * (entryAsProgram), not read from config: the API never shows it, and the mask means "keep the
 * one the platform holds", so the adopting create finds the chain as the program says and writes
 * nothing, the digest it records is the mask's, and a preview after compares the mask with
 * itself. A salt from config could not be told from the one held (adoption would take any value
 * as that one, and send none), and would ask the user for a secret they may never have had.
 * Setting a real value later is an update that sends it.
 */
function chainInputs(chain: LiveChain, ctx: ImportContext) {
  const { unmanaged } = liveEntries(chain);
  if (unmanaged.length > 0) {
    // The kind refuses to read such a chain, so a resource for it could never be adopted.
    const them = unmanaged.length === 1 ? "it" : "them";
    ctx.warn(
      `${NOUN} of destination "${ctx.name}" (${ctx.id}): not imported, it ${unmanaged.length === 1 ? "holds an instance" : "holds instances"} pulumi-cdc cannot manage: ${unmanaged.join("; ")}. Remove ${them} in the console and import again, or leave this chain out of Pulumi.`,
    );
    return undefined;
  }
  const transforms = (chain.transforms as TypedInstance[]).map((t) => entryAsProgram(t) as { [key: string]: Value });
  transforms.forEach((entry, i) => {
    for (const [field, value] of Object.entries(entry)) {
      if (value === MASK) ctx.note(`transforms[${i}].${field} of ${JSON.stringify(entry.name)} is "${MASK}": it keeps the secret the platform holds, which the API never shows; a value of your own (config.requireSecret) replaces it at the next \`pulumi up\`.`);
    }
  });
  return { destination: ctx.ref("Destination", ctx.id), transforms };
}

export const DESTINATION_SMT_CHAIN = {
  name: "DestinationSmtChain",
  token: "cdc:index:DestinationSmtChain",
  noun: NOUN,
  plural: "SMT chains",
  report: "smt_chain",
  imported: {
    flag: "smt-chains",
    suffix: "SmtChain",
    order: 6,
    section: "SMT chains of destinations (each a resource of its own, as the console keeps them apart from the connector's config)",
    objects: chains,
    inputs: chainInputs,
  },
  secretPaths: smtSecretPaths,
  internal: ["secretSalt", "secretDigests"],
  description:
    "The chain of single message transforms (SMTs) of a destination, written through the chain endpoint only, never the connector's config, so it works the same for every destination connector. " +
    "Writes are guarded by the chain's revision; a chain edited in the console shows in a plain `pulumi preview`, entry and field named. Destroy empties the chain. Import id: the destination's id.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...inputs.map(({ replaceOnChange: _r, ...p }) => p),
    { name: "chainRevision", type: "string", required: true, description: "The chain's revision after Pulumi's last write or read: what the next write expects." },
    { name: "applicationStatus", type: "string", required: true, description: "Whether the connector runs the saved chain yet: `pending`, `applying`, `applied` or `failed`." },
    { name: "instanceIds", type: { arrayOf: "string" }, required: true, description: "The platform's id of each transform's instance, in order." },
  ],
} satisfies KindSpec<"DestinationSmtChain">;
