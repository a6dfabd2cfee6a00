import * as pulumi from "@pulumi/pulumi";
import { CATALOGUE, Destination, HELPERS, mysqlTables, Source, Tag, type ConnectorConfig } from "pulumi-cdc";

// One MySQL source delivered to as many destinations as the stack lists. Adding, removing or
// changing a destination is a config change (`pulumi config set --path ...`), not a code change,
// so every environment (stack) can fan out to a different set of systems from the same program.
// Any destination connector of the platform can be listed: its settings are the properties of
// the SDK's generated helper for it, checked against the same catalogue the helper comes from.

const config = new pulumi.Config("fanout");
// Every object name is prefixed, because source, destination and tag names are unique per tenant
// and several stacks usually share one tenant.
const prefix = config.get("prefix") ?? pulumi.getStack();

type DesiredState = "active" | "paused" | "stopped";

interface DestinationEntry {
  /** Short name, unique in the list: `[a-z0-9-]`. The API name becomes `<prefix>-<name>`. */
  name: string;
  /** A destination connector of the platform, e.g. `s3`, `clickhouse`, `snowflake`. */
  connector: string;
  /** The generated helper's properties, without secrets (see secrets). */
  settings: Record<string, unknown>;
  desiredState?: DesiredState;
  /** The config key (in the `fanout` namespace) holding this destination's required secret. Default `<name>Secret`. */
  secretKey?: string;
  /** Other secret properties: helper property -> the config key (in the `fanout` namespace) holding it. */
  secrets?: Record<string, string>;
}

/** The helper property that takes a connector's required secret (a password, a private key), if it has one. */
function requiredSecret(connector: string): string | undefined {
  return CATALOGUE.destination[connector]!.keys.find((k) => k.secret && k.required)?.name;
}

/**
 * Checks the whole list before any resource is declared, and reports every problem at once,
 * so a typo in stack config fails the preview with a clear message instead of a half-applied
 * fan-out. Value types, allowed values and ranges are checked by the provider before any API call.
 */
function validate(raw: unknown): { entries: DestinationEntry[]; secrets: Map<string, Record<string, pulumi.Output<string>>> } {
  const problems: string[] = [];
  const entries: DestinationEntry[] = [];
  const secrets = new Map<string, Record<string, pulumi.Output<string>>>();
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new pulumi.RunError(
      "fanout:destinations must be a non-empty list, e.g. `pulumi config set --path 'fanout:destinations[0].name' lake` (see README.md)",
    );
  }
  const seen = new Set<string>();
  raw.forEach((item: unknown, i: number) => {
    const at = `fanout:destinations[${i}]`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const e = item as Record<string, unknown>;
    if (typeof e.name !== "string" || !/^[a-z0-9][a-z0-9-]*$/.test(e.name)) {
      problems.push(`${at}.name must be lower-case letters, digits and '-', got ${JSON.stringify(e.name)}`);
      return;
    }
    if (seen.has(e.name)) problems.push(`${at}.name '${e.name}' is used twice: names must be unique`);
    seen.add(e.name);
    const connector = typeof e.connector === "string" ? e.connector : "";
    const spec = CATALOGUE.destination[connector];
    if (!spec) {
      problems.push(`${at}.connector must be a destination connector (${Object.keys(CATALOGUE.destination).join(", ")}), got ${JSON.stringify(e.connector)}`);
      return;
    }
    const settings = (e.settings ?? {}) as Record<string, unknown>;
    if (typeof settings !== "object" || Array.isArray(settings)) {
      problems.push(`${at}.settings must be an object of ${connector} settings`);
      return;
    }
    const secretNames = new Set(spec.keys.filter((k) => k.secret).map((k) => k.name));
    const known = new Set(spec.keys.filter((k) => !k.computed).map((k) => k.name));
    for (const property of Object.keys(settings)) {
      if (!known.has(property)) problems.push(`${at}.settings.${property} is not a ${connector} setting`);
      else if (secretNames.has(property)) problems.push(`${at}.settings.${property} is a secret: map it in ${at}.secrets and set it with pulumi config set --secret`);
    }
    for (const k of spec.keys) {
      if (k.required && !k.secret && !k.computed && settings[k.name] === undefined) problems.push(`${at}.settings.${k.name} is required for ${connector} (\`${k.key}\`)`);
    }
    if (e.desiredState !== undefined && !["active", "paused", "stopped"].includes(e.desiredState as string)) {
      problems.push(`${at}.desiredState must be active, paused or stopped, got ${JSON.stringify(e.desiredState)}`);
    }
    // Each secret property from its own secret config key: the required one by default from <name>Secret.
    const mapped: Record<string, string> = { ...((e.secrets ?? {}) as Record<string, string>) };
    const required = requiredSecret(connector);
    if (required && mapped[required] === undefined) mapped[required] = typeof e.secretKey === "string" && e.secretKey !== "" ? e.secretKey : `${e.name}Secret`;
    const values: Record<string, pulumi.Output<string>> = {};
    for (const [property, key] of Object.entries(mapped)) {
      if (!secretNames.has(property)) {
        problems.push(`${at}.secrets.${property} is not a secret setting of ${connector}`);
        continue;
      }
      // getSecret, not requireSecret: collect every missing secret into one message.
      const value = config.getSecret(key);
      if (value === undefined) problems.push(`${at} (${e.name}) needs its ${property}: pulumi config set --secret fanout:${key} <value>`);
      else values[property] = value;
    }
    secrets.set(e.name, values);
    entries.push({ ...(e as unknown as DestinationEntry), settings });
  });
  if (problems.length > 0) throw new pulumi.RunError(`invalid fan-out config:\n  - ${problems.join("\n  - ")}`);
  return { entries, secrets };
}

/** The connector config of one entry, through the SDK's generated helper for its connector. */
function connectorConfig(entry: DestinationEntry, secrets: Record<string, pulumi.Output<string>> = {}): ConnectorConfig {
  const helper = (HELPERS.destination as Record<string, (args: object) => ConnectorConfig>)[entry.connector]!;
  return helper({ ...entry.settings, ...secrets });
}

const { entries, secrets } = validate(config.requireObject<unknown>("destinations"));

interface SourceSettings {
  hostname?: string;
  port?: number;
  user?: string;
  tables?: string[];
}
const sourceSettings = config.getObject<SourceSettings>("source") ?? {};

const tag = new Tag("fanout", {
  name: `${prefix}-fanout`,
  description: `Objects of the ${prefix} fan-out`,
  type: ["sources", "destinations"],
});

const source = new Source("shop", {
  name: `${prefix}-shop`,
  ...mysqlTables({
    databaseHostname: sourceSettings.hostname ?? "shop-db.internal",
    databasePort: sourceSettings.port,
    databaseUser: sourceSettings.user ?? "cdc",
    databasePassword: config.requireSecret("sourcePassword"),
    tables: sourceSettings.tables ?? ["shop.orders", "shop.order_items"],
  }),
  tags: [tag],
});

// Resource names are the entry names: renaming an entry replaces that destination (and only it),
// reordering the list changes nothing.
const destinations = entries.map(
  (entry) =>
    new Destination(
      entry.name,
      {
        name: `${prefix}-${entry.name}`,
        ...connectorConfig(entry, secrets.get(entry.name)),
        desiredState: entry.desiredState,
        tags: [tag],
      },
      { dependsOn: [source] },
    ),
);

export const tagName = tag.name;
export const sourceId = source.id;
export const sourceTopics = source.topics;
/** name -> {id, connector, status} of every destination. */
export const fanout = pulumi
  .all(destinations.map((d) => pulumi.all([d.name, d.id, d.connector, d.status])))
  .apply((rows) => Object.fromEntries(rows.map(([name, id, connector, status]) => [name, { id, connector, status }])));
/** Destinations changed outside Pulumi as of the last refresh. */
export const drifted = pulumi
  .all(destinations.map((d) => pulumi.all([d.name, d.drift])))
  .apply((rows) => rows.filter(([, drift]) => drift?.detected).map(([name]) => name));
