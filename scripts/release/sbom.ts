import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";

/** The folder of artifacts/ the SBOMs go to, one CycloneDX JSON file (`.cdx.json`) per package. */
export const SBOM_DIR = "sbom";

/** An SBOM the release wrote, and what it must describe: the package by its registry's name, at the version as its ecosystem spells it. */
export interface Sbom {
  file: string;
  name: string;
  version: string;
}

/** The parts of a CycloneDX JSON document the checks and the plugin's narrowing read. */
export interface Bom {
  bomFormat?: unknown;
  specVersion?: unknown;
  metadata?: { component?: { name?: unknown; version?: unknown; "bom-ref"?: unknown } };
  components?: Array<{ "bom-ref"?: unknown; name?: unknown; version?: unknown; properties?: Array<{ name: string; value: string }> }>;
  dependencies?: Array<{ ref: string; dependsOn?: string[] }>;
}

/**
 * What is wrong with a CycloneDX SBOM (empty when nothing): not CycloneDX JSON, no specVersion,
 * metadata.component not the package at its version, or no components (each of the release's
 * packages has dependencies) or one without a name and a version.
 */
export function bomProblems(bom: Bom, want: { name: string; version: string }): string[] {
  if (bom === null || typeof bom !== "object" || Array.isArray(bom)) return ["is not a JSON object"];
  const problems: string[] = [];
  if (bom.bomFormat !== "CycloneDX") problems.push(`bomFormat is ${JSON.stringify(bom.bomFormat)}, not "CycloneDX"`);
  if (typeof bom.specVersion !== "string" || !/^1\.\d+$/.test(bom.specVersion)) problems.push(`specVersion is ${JSON.stringify(bom.specVersion)}, not a CycloneDX version (1.x)`);
  const component = bom.metadata?.component;
  if (!component) problems.push("has no metadata.component (the package it describes)");
  else {
    if (component.name !== want.name) problems.push(`metadata.component is named ${JSON.stringify(component.name)}, not ${want.name}`);
    if (component.version !== want.version) problems.push(`metadata.component's version is ${JSON.stringify(component.version)}, not ${want.version}`);
  }
  if (!Array.isArray(bom.components) || bom.components.length === 0) problems.push(`lists no components (${want.name} has dependencies)`);
  else {
    const unnamed = bom.components.filter((c) => typeof c.name !== "string" || c.name === "" || typeof c.version !== "string" || c.version === "");
    if (unnamed.length) problems.push(`${unnamed.length} of its ${bom.components.length} components lack a name or a version`);
  }
  return problems;
}

/** bomProblems for an SBOM file, each problem naming the file; a file that is not JSON is one problem. */
export function sbomFileProblems(sbom: Sbom): string[] {
  let bom: Bom;
  try {
    bom = JSON.parse(readFileSync(sbom.file, "utf8")) as Bom;
  } catch (error) {
    return [`${basename(sbom.file)}: not a JSON file (${(error as Error).message})`];
  }
  return bomProblems(bom, sbom).map((p) => `${basename(sbom.file)}: ${p}`);
}

export function writeBom(file: string, bom: Bom): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(bom, null, 2)}\n`);
}

/**
 * The SBOM narrowed to the components whose bom-ref is in keep (and the dependency graph to
 * them): the plugin's bundle holds some of the packages of the tree npm described, not all.
 */
export function narrowBom(bom: Bom, keep: ReadonlySet<string>): Bom {
  const root = bom.metadata?.component?.["bom-ref"];
  const kept = (ref: unknown) => typeof ref === "string" && (keep.has(ref) || ref === root);
  return {
    ...bom,
    components: (bom.components ?? []).filter((c) => kept(c["bom-ref"])).map((c) => ({
      ...c,
      // npm marks the repository's development packages; the bundle ships the code of the ones it holds.
      properties: c.properties?.filter((p) => p.name !== "cdx:npm:package:development"),
    })),
    dependencies: (bom.dependencies ?? []).filter((d) => kept(d.ref)).map((d) => ({ ...d, dependsOn: d.dependsOn?.filter(kept) })),
  };
}
