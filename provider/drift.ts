import { createTwoFilesPatch } from "diff";
import { configComparisonSchema, redact, type CdcClient, type ConfigComparison } from "./client/index.js";
import { changedConfigKeys, renderConfig, type ConfigMap } from "./normalize.js";

/** What a resource's outputs say about changes made outside Pulumi. */
export interface DriftReport {
  detected: boolean;
  /** Unified diff, secrets masked: the API's for destinations, ours for sources. */
  maskedDiff: string;
  /** Config keys whose live value differs from Pulumi's (sources). */
  changedKeys: string[];
  /** Destinations: the comparison's timestamps and the baseline Pulumi recorded after its own last write. */
  oldestTimestamp?: string;
  latestTimestamp?: string;
  baselineTimestamp?: string;
}

export const NO_DRIFT: DriftReport = { detected: false, maskedDiff: "", changedKeys: [] };

export function compareToOriginal(api: CdcClient, id: string): Promise<ConfigComparison> {
  return api.get("/destinations/{id}/config-history/compare-to-original", { params: { id }, schema: configComparisonSchema });
}

function optionalString(value: string | number | null | undefined): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

function instant(value: unknown): number {
  const t = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(t) ? 0 : t;
}

/**
 * Destination drift. The API compares the current config with the *original* one, which also
 * differs after Pulumi's own updates; so drift means a config recorded after the baseline that
 * Pulumi took right after its own last write.
 */
export function destinationDrift(comparison: ConfigComparison, baselineTimestamp: string | undefined): DriftReport {
  const latest = optionalString(comparison.latest_timestamp);
  const detected = baselineTimestamp !== undefined && latest !== undefined && instant(latest) > instant(baselineTimestamp);
  return {
    detected,
    maskedDiff: detected ? (comparison.masked_diff ?? "") : "",
    changedKeys: [],
    oldestTimestamp: optionalString(comparison.oldest_timestamp),
    latestTimestamp: latest,
    baselineTimestamp,
  };
}

/** Source drift: the live config of the keys Pulumi manages against Pulumi's, secrets excluded. */
export function sourceDrift(planned: ConfigMap, live: ConfigMap, secretKeys: ReadonlySet<string>, label: string): DriftReport {
  const changedKeys = changedConfigKeys(planned, live).filter((k) => !secretKeys.has(k));
  if (changedKeys.length === 0) return NO_DRIFT;
  const maskedDiff = createTwoFilesPatch(`${label} (pulumi)`, `${label} (live)`, renderConfig(planned, secretKeys), renderConfig(live, secretKeys));
  return { detected: true, maskedDiff, changedKeys };
}

/**
 * Tells the person running `pulumi preview` what changed outside Pulumi. Dynamic providers cannot
 * return a detailed diff, but the engine shows a provider's stderr as diagnostics, so the masked
 * diff appears right under the planned update.
 */
export function reportDrift(subject: string, findings: readonly string[], write: (text: string) => void = (t) => process.stderr.write(t)): void {
  if (findings.length === 0) return;
  const lines = findings.flatMap((f) => f.trimEnd().split("\n"));
  write(redact(`drift: ${subject} changed outside Pulumi; \`pulumi up\` puts the program's version back:\n${lines.map((l) => `  ${l}`).join("\n")}\n`));
}
