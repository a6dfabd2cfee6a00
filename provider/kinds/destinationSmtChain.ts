import { z } from "zod";
import { knowable } from "../check.js";
import { TRANSFORMS_REQUIRED } from "../smt/entries.js";
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

export const DESTINATION_SMT_CHAIN = {
  name: "DestinationSmtChain",
  token: "cdc:index:DestinationSmtChain",
  noun: "SMT chain",
  plural: "SMT chains",
  report: "smt_chain",
  imported: {
    flag: "smt-chains",
    suffix: "SmtChain",
    order: 6,
    section: "SMT chains of destinations (each a resource of its own, as the console keeps them apart from the connector's config)",
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
