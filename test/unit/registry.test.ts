import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDER_CONFIG } from "../../provider/kinds/index.js";
import { INSTALLATION_PAGE, renderSettings, SETTINGS_BEGIN, SETTINGS_END, withSettings } from "../../scripts/generate/registry-docs.js";
import { SCHEMA_PATH } from "../../scripts/generate/schema.js";

// What the public Pulumi Registry needs of a package before it can list it, as Pulumi documents it:
// - "Publishing to the Pulumi Registry"
//   (https://www.pulumi.com/docs/iac/guides/building-extending/packages/publishing-packages/): a
//   docs/ folder with _index.md (the package's overview) and installation-configuration.md, each
//   with front matter title, meta_desc and layout: package (as Pulumi's own providers ship them,
//   e.g. pulumi/pulumi-random's docs/_index.md), and the schema's package metadata;
// - the package schema reference (https://www.pulumi.com/docs/iac/build-with-pulumi/schema/#package):
//   displayName, publisher, logoUrl, repository, homepage, license, keywords, where the keywords
//   carry the Registry's facets `category/<use case>` (the Registry filters on cloud, database,
//   infrastructure, monitoring, network, utility, version control) and `kind/<native|component|bridged>`.

const root = join(__dirname, "..", "..");
const schema = JSON.parse(readFileSync(join(root, SCHEMA_PATH), "utf8")) as Record<string, unknown>;

/** The Registry's use-case categories, as its package list filters them. */
const CATEGORIES = ["cloud", "database", "infrastructure", "monitoring", "network", "utility", "vcs"];
const KINDS = ["native", "component", "bridged"];

/** A Markdown page's YAML front matter as key: value pairs (flat, as the Registry's pages use it). */
function frontMatter(text: string): Record<string, string> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) return {};
  const out: Record<string, string> = {};
  for (const line of m[1]!.split("\n")) {
    const kv = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (kv) out[kv[1]!] = kv[2]!.trim();
  }
  return out;
}

const page = (name: string) => readFileSync(join(root, "docs", name), "utf8");

describe("the schema's package metadata (what the Registry shows)", () => {
  it("sets displayName, publisher, logoUrl, repository, homepage and license", () => {
    for (const field of ["displayName", "publisher", "logoUrl", "repository", "homepage", "license", "description"]) {
      expect(typeof schema[field], field).toBe("string");
      expect((schema[field] as string).length, field).toBeGreaterThan(0);
    }
    expect(schema.repository).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/);
    expect(schema.homepage).toMatch(/^https:\/\//);
    expect(schema.logoUrl).toMatch(/^https:\/\/.+\.(png|svg)$/);
    // An SPDX identifier, as npm, PyPI and NuGet read it too; the repository's LICENSE says the same.
    expect(schema.license).toBe("Apache-2.0");
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toContain("Apache License");
  });

  it("the logo it names is in the repository at the path its URL names", () => {
    const path = /\/main\/(.+)$/.exec(schema.logoUrl as string)?.[1];
    expect(path).toBeDefined();
    const png = readFileSync(join(root, path!));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });

  it("keywords carry exactly one category/<use case> and one kind/<type>, kind/native for a provider plugin with its own CRUD", () => {
    const keywords = schema.keywords as string[];
    const categories = keywords.filter((k) => k.startsWith("category/"));
    const kinds = keywords.filter((k) => k.startsWith("kind/"));
    expect(categories).toHaveLength(1);
    expect(CATEGORIES).toContain(categories[0]!.slice("category/".length));
    expect(kinds).toEqual(["kind/native"]);
    expect(KINDS).toContain(kinds[0]!.slice("kind/".length));
    expect(keywords).toContain("pulumi");
  });
});

describe("the Registry's pages, docs/_index.md and docs/installation-configuration.md", () => {
  it.each(["_index.md", "installation-configuration.md"])("%s has front matter title, meta_desc and layout: package", (name) => {
    const fm = frontMatter(page(name));
    expect(fm.layout).toBe("package");
    expect(fm.title).toContain(schema.displayName as string);
    expect(fm.meta_desc?.length ?? 0).toBeGreaterThan(40);
    // meta_desc is the page's description for search engines: one line, short.
    expect(fm.meta_desc!.length).toBeLessThanOrEqual(200);
  });

  it("installation-configuration.md says how to install the plugin and each SDK", () => {
    const text = page("installation-configuration.md");
    expect(text).toContain("pulumi plugin install resource cdc");
    expect(text).toContain(schema.pluginDownloadURL as string);
    const language = schema.language as Record<string, Record<string, string>>;
    expect(text).toContain(language.nodejs!.packageName!);
    expect(text).toContain(language.python!.packageName!);
    expect(text).toContain(language.go!.importBasePath!);
  });

  it("installation-configuration.md names every setting with its environment variable, in the section npm run generate writes", () => {
    const text = page("installation-configuration.md");
    const begin = text.indexOf(SETTINGS_BEGIN);
    const end = text.indexOf(SETTINGS_END);
    expect(begin).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(begin);
    const section = text.slice(begin, end);
    for (const key of ["cdc:apiUrl", "cdc:clientId", "cdc:clientSecret", "cdc:adminTenantId", "cdc:adminServiceId", "cdc:retryAttempts", "cdc:maxConcurrency"]) {
      expect(section, key).toContain(`\`${key}\``);
    }
    for (const spec of PROVIDER_CONFIG) expect(section, spec.key).toMatch(new RegExp(`\\| \`${spec.key}\` \\| \`${spec.env}\` \\|`));
    expect(section).toMatch(/`cdc:clientSecret` \| `CDC_CLIENT_SECRET` \| string, secret \|/);
  });

  it("the settings section is current: npm run generate would write nothing", () => {
    const text = page("installation-configuration.md");
    expect(withSettings(text), `${INSTALLATION_PAGE} is stale: run npm run generate`).toBe(text);
    expect(text).toContain(renderSettings());
  });
});
