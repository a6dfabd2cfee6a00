import { camelName } from "../../catalogue/smt.js";
import type { CdcClient } from "../client/index.js";
import { getChain, smtErrorOf, type SmtIssue } from "./api.js";
import type { SmtEntry } from "./entries.js";

/** `/transforms/1/config/fields_include/0` → `transforms[1].fieldsInclude[0]`, as the program names it. */
export function programPath(pointer: string | undefined): string | undefined {
  const m = /^\/transforms\/(\d+)(?:\/(config|secret_operations)\/([^/]+)((?:\/[^/]+)*))?(?:\/([^/]+))?$/.exec(pointer ?? "");
  if (!m) return undefined;
  const [, index, area, key, rest, own] = m;
  if (area === "config" && key) return `transforms[${index}].${camelName(key)}${(rest ?? "").split("/").filter(Boolean).map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join("")}`;
  if (area === "secret_operations") return `transforms[${index}] secret operation ${key}`;
  return `transforms[${index}]${own ? `.${camelName(own)}` : ""}`;
}

function issueLine(issue: SmtIssue, entries: readonly SmtEntry[]): string {
  const index = /^\/transforms\/(\d+)/.exec(issue.pointer ?? "")?.[1];
  const entry = index !== undefined ? entries[Number(index)] : undefined;
  const where = programPath(issue.pointer) ?? (issue.pointer || "the chain");
  const who = [entry ? `transform "${entry.name}"` : undefined, issue.instance_id ? `instance ${issue.instance_id}` : undefined, issue.request_key ? `request key ${issue.request_key}` : undefined]
    .filter(Boolean)
    .join(", ");
  return `${where}${who ? ` (${who})` : ""}: ${issue.message} [${issue.code}]`;
}

/**
 * A refused chain write in the program's terms: a stale revision says to refresh and which
 * revisions were seen, a validation failure names each issue's entry, instance and key.
 * Anything else is returned as it is.
 */
export async function chainWriteError(err: unknown, ctx: { api: CdcClient; destinationId: string; expected: string | undefined; entries: readonly SmtEntry[] }): Promise<unknown> {
  const envelope = smtErrorOf(err);
  if (!envelope) return err;
  const subject = `the SMT chain of destination ${ctx.destinationId}`;
  switch (envelope.code) {
    case "smt_revision_conflict":
    case "smt_chain_exists":
    case "smt_expected_revision_required": {
      const now = await getChain(ctx.api, ctx.destinationId).catch(() => undefined);
      const seen = ctx.expected === undefined ? "no chain" : `revision ${ctx.expected}`;
      const current = now?.revision ? `; it is now at revision ${now.revision}` : "";
      return new Error(
        `${subject} changed since Pulumi read it (${envelope.code}: ${envelope.message}). Pulumi saw ${seen}${current}. ` +
          "Run `pulumi refresh` to read the chain as it is, then `pulumi up` to put the program's chain back. Nothing was written.",
      );
    }
    case "smt_connector_deleting":
      return new Error(`${subject} cannot be written: the destination is being deleted (${envelope.message}). Nothing was written.`);
    case "smt_validation_failed": {
      const lines = envelope.issues.map((i) => `  ${issueLine(i, ctx.entries)}`);
      return new Error(`${subject} was refused (${envelope.code}): ${envelope.message}. Nothing was written.\n${lines.join("\n")}`);
    }
    default:
      return err;
  }
}
