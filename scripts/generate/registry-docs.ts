import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SETTING_SPECS } from "../../provider/client/settings.js";
import { TUNING_SPECS } from "../../provider/client/tuning.js";
import { PROVIDER_CONFIG } from "../../provider/kinds/index.js";
import type { ConfigSpec } from "../../provider/kinds/spec.js";

/**
 * The settings tables of docs/installation-configuration.md, the page the Pulumi Registry shows as a
 * package's "Installation & Configuration". The page's prose is written by hand; the tables between
 * its two markers are written here, from the provider's configuration (provider/kinds/config.ts,
 * which reads each key and environment variable from provider/client/settings.ts and tuning.ts), so
 * a setting added there reaches the Registry page with `npm run generate` and a stale page fails the
 * tests (test/unit/registry.test.ts).
 */

export const INSTALLATION_PAGE = "docs/installation-configuration.md";

export const SETTINGS_BEGIN = "<!-- BEGIN settings: written by `npm run generate` (scripts/generate/registry-docs.ts) from provider/kinds/config.ts; edit there, not here -->";
export const SETTINGS_END = "<!-- END settings -->";

/** The sentence config.ts appends to each description; the table has a column for it instead. */
function envSentence(spec: ConfigSpec): string {
  return ` Read from the environment variable \`${spec.env}\` when the stack config does not set it.`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function table(specs: readonly ConfigSpec[]): string {
  const rows = specs.map((spec) => {
    const sentence = envSentence(spec);
    // Fail loudly rather than print the sentence twice if config.ts words it differently one day.
    if (!spec.description.endsWith(sentence)) throw new Error(`${spec.key}: its description no longer ends with "${sentence.trim()}"`);
    const what = spec.description.slice(0, -sentence.length);
    return `| \`${spec.key}\` | \`${spec.env}\` | ${spec.type}${spec.secret ? ", secret" : ""} | ${cell(what)} |`;
  });
  return ["| setting | environment variable | type | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

/** The provider's settings in three groups: connection, admin scope, tuning. */
export function settingGroups(): Array<{ title: string; lead: string; specs: ConfigSpec[] }> {
  const connection = PROVIDER_CONFIG.filter((c) => c.name in SETTING_SPECS);
  const tuning = PROVIDER_CONFIG.filter((c) => c.name in TUNING_SPECS);
  const admin = connection.filter((c) => c.name.startsWith("admin"));
  const rest = PROVIDER_CONFIG.filter((c) => !connection.includes(c) && !tuning.includes(c));
  if (rest.length > 0) throw new Error(`settings in no group: ${rest.map((c) => c.key).join(", ")}`);
  return [
    {
      title: "Connection",
      lead: "Where the API is and which credential to use: `cdc:clientId` with `cdc:clientSecret`, or `cdc:accessToken`.",
      specs: connection.filter((c) => !admin.includes(c)),
    },
    {
      title: "Admin scope",
      lead: "For a platform operator's credential acting on another tenant; leave unset otherwise.",
      specs: admin,
    },
    {
      title: "Tuning",
      lead: "Retries, time budgets and concurrency of the API client; the defaults suit most stacks.",
      specs: tuning,
    },
  ];
}

/** The text between the markers. */
export function renderSettings(): string {
  const parts = settingGroups().map((g) => `### ${g.title}\n\n${g.lead}\n\n${table(g.specs)}`);
  return `${SETTINGS_BEGIN}\n\n${parts.join("\n\n")}\n\n${SETTINGS_END}`;
}

/** `page` with its settings section replaced by the current rendering. */
export function withSettings(page: string): string {
  const begin = page.indexOf(SETTINGS_BEGIN);
  const end = page.indexOf(SETTINGS_END);
  if (begin < 0 || end < begin) throw new Error(`${INSTALLATION_PAGE} lacks the settings markers (${SETTINGS_BEGIN} ... ${SETTINGS_END})`);
  return `${page.slice(0, begin)}${renderSettings()}${page.slice(end + SETTINGS_END.length)}`;
}

/** Rewrites the page's settings section under `root` when it differs; says whether it did. */
export function writeInstallationPage(root: string): boolean {
  const target = join(root, INSTALLATION_PAGE);
  const current = readFileSync(target, "utf8");
  const next = withSettings(current);
  if (next === current) return false;
  writeFileSync(target, next);
  return true;
}
