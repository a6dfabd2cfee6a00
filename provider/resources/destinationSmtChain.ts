import { failuresFromZod, type CheckFailure } from "../check.js";
import type { CdcClient, DestinationConnector } from "../client/index.js";
import { client } from "../context.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { DESTINATION_SMT_CHAIN, type ImportedChain } from "../kinds/destinationSmtChain.js";
import { plainString, UNREADABLE } from "./recovered.js";
import type { ImportListing } from "../kinds/imported.js";
import { reportDrift } from "../drift.js";
import { containsUnknown, MASK } from "../normalize.js";
import { newSalt } from "../secret-digest.js";
import { getChain, putChain, type LiveChain, type TypedInstance } from "../smt/api.js";
import { buildWrites, checkEntries, compareEntries, digestsOf, entryAsProgram, withHeldSecrets, liveEntries, priorsOf, secretPresenceFindings, withoutSecrets, type Finding, type SecretDigests, type SmtEntry } from "../smt/entries.js";
import { chainWriteError } from "../smt/errors.js";
import { createSurvivingFaults } from "./create.js";

export type { SmtEntry } from "../smt/entries.js";

export interface DestinationSmtChainInputs {
  /** The destination's id. */
  destination: string;
  /** The user chain, in order. */
  transforms: SmtEntry[];
}

/** Outputs keep no secret: each entry without its salt, and a keyed digest of the salt Pulumi sent. */
export interface DestinationSmtChainOutputs extends DestinationSmtChainInputs {
  /** The chain's revision after Pulumi's last write or read: the next write's `expected_revision`. */
  chainRevision: string;
  /** `pending`, `applying`, `applied` or `failed`: whether the connector runs the saved chain yet. */
  applicationStatus: string;
  /** The platform's id of each entry's instance, in order. */
  instanceIds: string[];
  secretSalt: string;
  secretDigests: SecretDigests;
}


/**
 * The live chain the last diff of this run read, by destination. A plain `pulumi up` shows a
 * console edit in its preview and then puts the program's chain back: the write that follows
 * that diff replaces the chain the diff saw, so it carries that revision. A change made after
 * it still meets the revision guard.
 */
const seen = new Map<string, LiveChain>();

function outputs(destination: string, entries: readonly SmtEntry[], live: LiveChain, salt: string, digests: SecretDigests): DestinationSmtChainOutputs {
  return {
    destination,
    transforms: entries.map(withoutSecrets),
    chainRevision: live.revision ?? "",
    applicationStatus: live.applicationStatus,
    instanceIds: live.transforms.map((t) => t.id),
    secretSalt: salt,
    secretDigests: digests,
  };
}

/** What changed on the chain outside Pulumi: entries, fields, and secrets set or cleared ([] when nothing). */
export function chainFindings(live: LiveChain | undefined, recorded: Partial<DestinationSmtChainOutputs>): Finding[] {
  if (!live) return [{ path: "destination", text: "the destination was deleted: run `pulumi refresh` to drop the chain from the stack" }];
  const { entries, unmanaged } = liveEntries(live);
  const mine = (recorded.transforms ?? []).map(withoutSecrets);
  return [
    ...unmanaged.map((why) => ({ path: "transforms", text: `the chain holds an instance Pulumi cannot manage: ${why}` })),
    ...compareEntries(mine, entries, "was"),
    ...secretPresenceFindings(mine, recorded.secretDigests, live),
  ];
}

/**
 * What `pulumi-cdc drift` says of a chain: the findings of a plain preview when the stack's
 * outputs can be read; when the state keeps `transforms` encrypted (a program that made the
 * list secret), a revision saved outside Pulumi, which is all that can be compared.
 */
export function smtChainDrift(live: LiveChain | undefined, recorded: Partial<DestinationSmtChainOutputs>): string[] {
  if (!live || Array.isArray(recorded.transforms)) return chainFindings(live, recorded).map((f) => f.text);
  return recorded.chainRevision && live.revision !== recorded.chainRevision
    ? [`the chain was saved outside Pulumi: it is at revision ${live.revision ?? "(none)"}, Pulumi last wrote ${recorded.chainRevision}`]
    : [];
}

function goneError(destination: string): Error {
  return new Error(`destination ${destination} no longer exists, and its SMT chain with it: run \`pulumi refresh\` to drop the chain from the stack`);
}

/**
 * A destination's chain of single message transforms: a resource of its own, written through
 * the chain endpoint only (never the connector's config), revision-guarded, with write-only
 * secrets sent as secret operations. Its id is the destination's id.
 */
export class DestinationSmtChainProvider {
  /**
   * `pulumi-cdc import`: each destination's chain, as this kind reads one. No chain yet
   * (`smt_chain_absent`) and an emptied one are both no chain to manage, and a destination gone
   * since the listing has none.
   */
  async listForImport(api: CdcClient, listing: ImportListing): Promise<ImportedChain[]> {
    const destinations = (await listing.objects("Destination")) as DestinationConnector[];
    const read = await Promise.all(destinations.filter((d) => d.id).map(async (d) => ({ destinationId: d.id!, chain: await getChain(api, d.id!) })));
    return read.filter((r): r is ImportedChain => r.chain !== undefined && r.chain.transforms.length > 0);
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const destination = typeof recorded.destination === "string" ? recorded.destination : id;
    const live = await getChain(api, destination);
    return { gone: live === undefined, findings: smtChainDrift(live, recorded) };
  }

  readonly replaceOnChange = DESTINATION_SMT_CHAIN.replaceOnChange;

  async check(_olds: Partial<DestinationSmtChainInputs>, news: Record<string, unknown>) {
    const parsed = DESTINATION_SMT_CHAIN.inputSchema.safeParse(news);
    const failures: CheckFailure[] = parsed.success ? [] : failuresFromZod(parsed.error);
    if (!Array.isArray(news.transforms)) return { inputs: news, failures };
    const { entries, failures: entryFailures } = checkEntries(news.transforms);
    failures.push(...entryFailures);
    if (failures.length > 0) return { inputs: news, failures };
    return { inputs: { destination: news.destination as string, transforms: entries }, failures };
  }

  async diff(id: string, olds: DestinationSmtChainOutputs, news: DestinationSmtChainInputs) {
    const replaces: string[] = this.replaceOnChange.filter((k) => olds[k] !== news[k]);
    const paths = new Set<string>();
    if (replaces.length === 0) {
      for (const f of compareEntries((olds.transforms ?? []).map(withoutSecrets), news.transforms.map(withoutSecrets))) paths.add(f.path);
      for (const f of this.secretChanges(olds, news)) paths.add(f);
    }
    if (replaces.length === 0 && !containsUnknown(news)) {
      // A plain preview shows a chain edited outside Pulumi: diff reads it.
      const live = await getChain(client(), olds.destination ?? id);
      if (live) seen.set(olds.destination ?? id, live);
      const findings = chainFindings(live, olds);
      for (const f of findings) paths.add(f.path);
      reportDrift(`the SMT chain of destination ${olds.destination ?? id}`, findings.map((f) => f.text));
    }
    return {
      changes: replaces.length > 0 || paths.size > 0,
      replaces,
      ...(paths.size > 0 || replaces.length > 0 ? { diffs: [...new Set([...paths, ...replaces])].sort() } : {}),
      deleteBeforeReplace: false,
    };
  }

  /** Secret fields whose value the program changed, by their recorded digests (the mask keeps the recorded one). */
  private secretChanges(olds: DestinationSmtChainOutputs, news: DestinationSmtChainInputs): string[] {
    const now = digestsOf(news.transforms, olds.secretSalt ?? "", olds.secretDigests);
    const out: string[] = [];
    news.transforms.forEach((entry, i) => {
      const names = new Set([...Object.keys(now[entry.name] ?? {}), ...Object.keys(olds.secretDigests?.[entry.name] ?? {})]);
      for (const field of names) if (now[entry.name]?.[field] !== olds.secretDigests?.[entry.name]?.[field]) out.push(`transforms[${i}].${field}`);
    });
    return out;
  }

  /**
   * `pulumi-cdc recover`: a chain has no name of its own: it is its destination's, and its id is
   * the destination's id. The interrupted PUT went through when the destination's chain is now
   * the one the pending inputs hold (secrets aside: the API never shows them): taken into the
   * stack. Any other chain is not this create's doing, or the PUT never landed: the next `pulumi
   * up` writes it, or says how the chain there differs. Whether the salt held is the program's
   * cannot be read, so the refresh after records it as the mask and the next `pulumi up` sends
   * the program's again: one write, and then the stack knows what the platform holds.
   */
  async findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const destination = plainString(inputs.destination);
    const raw = inputs.transforms;
    const entries = Array.isArray(raw) ? raw.filter((e): e is SmtEntry => typeof e === "object" && e !== null && typeof (e as SmtEntry).type === "string") : [];
    const mine = entries.map(withoutSecrets);
    if (destination === undefined || !Array.isArray(raw) || entries.length !== raw.length || hidden(mine)) return { unsettled: UNREADABLE };
    const live = await getChain(api, destination);
    if (!live) return { absent: `destination ${destination} no longer exists, so neither does its chain: the create is dropped` };
    const differences = [...liveEntries(live).unmanaged, ...compareEntries(mine, liveEntries(live).entries, "was").map((f) => f.text)];
    if (differences.length > 0) {
      return { absent: `the chain of destination ${destination} is not this create's (${differences[0]}${differences.length > 1 ? `, and ${differences.length - 1} more` : ""}): \`pulumi up\` writes it, or says how the chain there differs` };
    }
    if (context.tracked(destination)) return { foreign: `the chain of destination ${destination} is already in the stack under another resource` };
    const secrets = entries.some((e, i) => Object.keys(e).some((k) => !(k in mine[i]!)));
    const resend = secrets ? ` (the API never shows a secret it holds: the next \`pulumi up\` sends the program's again, unless it is "${MASK}")` : "";
    return { found: destination, what: `the chain of destination ${destination} holds this create's ${entries.length} transform(s): taken into the stack${resend}` };
  }

  async create(inputs: DestinationSmtChainInputs) {
    const api = client();
    const live = await getChain(api, inputs.destination);
    if (!live) throw new Error(`destination: there is no destination "${inputs.destination}"; give a Destination resource or the id of an existing destination`);
    const salt = newSalt();
    if (live.transforms.length > 0) {
      // A chain made elsewhere is taken over only when it already is the program's.
      const findings = [...liveEntries(live).unmanaged, ...compareEntries(inputs.transforms.map(withoutSecrets), liveEntries(live).entries, "was").map((f) => f.text)];
      if (findings.length > 0) {
        throw new Error(
          `destination ${inputs.destination} already has an SMT chain of ${live.transforms.length} transform(s) that differs from the program:\n` +
            findings.map((f) => `  ${f}`).join("\n") +
            "\nMake the program match it (`pulumi-cdc import` writes it; on the provider plugin `pulumi import cdc:index:DestinationSmtChain <name> <destination id>`), or remove it in the console first.",
        );
      }
      // The secrets it holds are taken to be the program's: the API never shows them.
      return { id: inputs.destination, outs: outputs(inputs.destination, inputs.transforms, live, salt, digestsOf(inputs.transforms, salt, undefined)) };
    }
    return { id: inputs.destination, outs: await this.write(api, inputs, live, { salt }) };
  }

  async read(id: string, props: Partial<DestinationSmtChainOutputs>) {
    const destination = props.destination ?? id;
    const live = await getChain(client(), destination);
    if (!live) return { id: "", props: {} };
    const { entries, unmanaged } = liveEntries(live);
    if (unmanaged.length > 0) {
      throw new Error(`the SMT chain of destination ${destination} holds instances pulumi-cdc cannot manage:\n${unmanaged.map((u) => `  ${u}`).join("\n")}\nRemove them in the console, or leave this chain out of Pulumi.`);
    }
    // No recorded destination: `pulumi import` on the plugin (the id is the destination's).
    const importing = props.destination === undefined;
    const salt = props.secretSalt || newSalt();
    const typed = live.transforms as TypedInstance[];
    if (importing) {
      const asProgram = typed.map(entryAsProgram);
      return { id: destination, props: outputs(destination, entries, live, salt, digestsOf(asProgram, salt, undefined)), inputs: { destination, transforms: asProgram } };
    }
    // The live entries, each secret the platform holds as the mask: digests are kept for those only.
    const held = typed.map(withHeldSecrets);
    const outs = outputs(destination, entries, live, salt, digestsOf(held, salt, props.secretDigests));
    const moved = chainFindings(live, props).length > 0;
    // Inputs only when the chain moved: otherwise the engine keeps the stack's, with the program's salt.
    return moved ? { id: destination, props: outs, inputs: { destination, transforms: held } } : { id: destination, props: outs };
  }

  async update(id: string, olds: DestinationSmtChainOutputs, news: DestinationSmtChainInputs) {
    const api = client();
    const destination = olds.destination ?? id;
    const fromDiff = seen.get(destination);
    seen.delete(destination);
    const live = fromDiff ?? (await getChain(api, destination));
    if (!live) throw goneError(destination);
    // The chain as this run's diff saw it; without one, as Pulumi last wrote it: a later change is a conflict.
    const base: LiveChain = fromDiff ?? { ...live, revision: olds.chainRevision || live.revision };
    return { outs: await this.write(api, news, base, { salt: olds.secretSalt || newSalt(), digests: olds.secretDigests }) };
  }

  /** Removing the resource empties the user chain (`transforms: []`); the destination keeps its platform-managed transforms. */
  async delete(id: string, props?: Partial<DestinationSmtChainOutputs>) {
    const api = client();
    const destination = props?.destination ?? id;
    const live = await getChain(api, destination);
    if (!live || live.transforms.length === 0) return;
    await putSurvivingFaults(api, destination, { ...(live.revision ? { expected_revision: live.revision } : {}), transforms: [] }, []).catch(async (err: unknown) => {
      throw await chainWriteError(err, { api, destinationId: destination, expected: live.revision, entries: [] });
    });
  }

  private async write(api: CdcClient, inputs: DestinationSmtChainInputs, base: LiveChain, secrets: { salt: string; digests?: SecretDigests }): Promise<DestinationSmtChainOutputs> {
    const transforms = buildWrites(inputs.transforms, priorsOf(base), { salt: secrets.salt, digests: secrets.digests });
    const expected = base.revision;
    try {
      const live = await putSurvivingFaults(api, inputs.destination, { ...(expected ? { expected_revision: expected } : {}), transforms }, inputs.transforms);
      return outputs(inputs.destination, inputs.transforms, live, secrets.salt, digestsOf(inputs.transforms, secrets.salt, secrets.digests));
    } catch (err) {
      throw await chainWriteError(err, { api, destinationId: inputs.destination, expected, entries: inputs.transforms });
    }
  }
}

/**
 * The chain PUT is a compare-and-swap on the revision Pulumi read, so it is never sent again
 * blindly: after a failure whose outcome is unknown (a 5xx, a lost answer) the chain is read, and
 * when it holds the entries written (secrets aside), the write landed; otherwise it is sent again
 * against the same revision, and a chain changed meanwhile is the conflict it should be.
 */
function putSurvivingFaults(api: CdcClient, destination: string, write: Parameters<typeof putChain>[2], entries: readonly SmtEntry[]): Promise<LiveChain> {
  const mine = entries.map(withoutSecrets);
  return createSurvivingFaults({
    what: `the SMT chain of destination ${destination}`,
    send: () => putChain(api, destination, write),
    find: async () => {
      const live = await getChain(api, destination);
      if (!live) return undefined;
      const { entries: held, unmanaged } = liveEntries(live);
      return unmanaged.length === 0 && compareEntries(mine, held, "was").length === 0 ? live : undefined;
    },
    mismatch: () => undefined,
    policy: api.retryPolicy,
    lookup: "the chain read back",
  });
}

/** A value the state keeps encrypted (a secret), at any depth. */
function hidden(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hidden);
  return typeof value === "object" && value !== null && ("ciphertext" in value || Object.values(value).some(hidden));
}
