import { z } from "zod";
import { defaultFirstText, DESTINATION_STATES, SOURCE_STATES, type DesiredState } from "../../catalogue/kind-values.js";
import { configValue, knowable } from "../check.js";
import { declareInputs } from "./inputs.js";
import { DESTINATION_CODES, echo, list, nameInput, SOURCE_CODES, STRINGS, tagsInput } from "./shared.js";
import type { DestinationConnector } from "../client/schemas.js";
import type { ImportContext } from "./imported.js";
import type { PropertySpec } from "./spec.js";
import { tfString, tfStrings, type KindTerraform } from "./terraform.js";

/** What sources and destinations share: one core (provider/resources/connector.ts), two kinds. */
export function connectorKind<K extends "Source" | "Destination">(kind: K) {
  const what = kind === "Source" ? "source" : "destination";
  const codes = kind === "Source" ? SOURCE_CODES : DESTINATION_CODES;
  const states = kind === "Source" ? SOURCE_STATES : DESTINATION_STATES;
  const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
    name: nameInput(what, ", unique per tenant"),
    connector: {
      type: "string",
      replaceOnChange: true,
      description:
        `The connector kind: the platform's code of the ${what} connector, e.g. \`${kind === "Source" ? "postgresql" : "snowflake"}\`. ` +
        `The catalogued ones are ${list(codes)}; any other code is passed to the API as is. Changing it replaces the ${what}.`,
      check: knowable(z.string({ error: `is required: the ${what} connector kind, e.g. "postgresql"` }).min(1, { error: `must not be empty: set the ${what} connector kind` })),
    },
    config: {
      type: { mapOf: "any" },
      ts: { type: "ConfigValue", convert: kind === "Source" ? "sourceConfig" : "destinationConfig" },
      description:
        `The connector's settings, in the platform's own keys (e.g. \`${kind === "Source" ? "database.hostname.user.defined" : "snowflake.url.name"}\`). ` +
        "Values are strings, numbers, booleans, lists of strings, or objects for the few map-valued keys; `null` leaves a key unset. " +
        "For a catalogued connector the config is checked before any API call: required keys, types, allowed values and ranges. " +
        "Secret keys (passwords, private keys, secret access keys, connection strings) are kept as Pulumi secrets and never compared with the API's masked values. " +
        `Changing a key the platform fixes at creation (e.g. Snowflake \`ingestion.mode\`) replaces the ${what}.`,
      check: z.record(z.string(), configValue, { error: `is required: an object of connector settings (string, number, boolean, list or map values)` }),
    },
    desiredState: {
      type: "string",
      ts: { type: kind === "Source" ? "SourceState" : "DesiredState" },
      description: `The state Pulumi keeps the ${what} in: ${defaultFirstText(states)}. The ${what} is paused${kind === "Destination" ? ", stopped" : ""} or resumed to match; a status changed outside Pulumi is drift.`,
      check: z.enum(states as readonly DesiredState[] as [DesiredState, ...DesiredState[]], { error: `must be one of ${states.join(", ")}` }).optional(),
    },
    adoptId: {
      type: "string",
      description: `The id of an existing ${what} to take over instead of creating one: \`pulumi up\` reads it (it must be of the same connector) and makes it match the program, writing nothing (no update, no pause or resume) when it already does. A secret it has is taken to hold the program's value (the API masks it).`,
      check: knowable(z.string().min(1, { error: "must not be empty: the id of the existing object to adopt" })).optional(),
    },
    tags: tagsInput(what),
  });
  const outputs: PropertySpec[] = [
    ...echo(inputs, ["name", "connector", "config", "desiredState"]),
    { name: "status", type: "string", required: true, description: `The API's \`connector_status\` of the ${what}: Active, Paused, Stopped, Broken, Starting, Unassigned, Unknown or Pending.` },
    { name: "displayName", type: "string", required: true, description: "The connector's display name, as the platform shows it." },
    { name: "createdTimestamp", type: "string", required: true, description: `When the ${what} was created, as the API reports it.` },
    { name: "tenantId", type: "string", required: true, from: { field: "tenant_id", absent: "" }, description: `The id of the tenant the ${what} belongs to.` },
    {
      name: "topics",
      type: STRINGS,
      required: true,
      from: { field: "topics", absent: [] },
      description: kind === "Source" ? "The topics the source writes, one per captured table or collection, by name." : "The topics the destination reads, by name.",
    },
    {
      name: "topicIds",
      type: STRINGS,
      required: true,
      from: { field: "topic_ids", absent: [] },
      description: kind === "Source" ? "The ids of the source's topics (`source_<id>.<schema>.<table>`): what a `Topic` resource's `topicId` takes." : "The ids of the topics the destination reads.",
    },
    { name: "topicMap", type: { mapOf: "any" }, required: true, from: { field: "topic_map", absent: {} }, description: `The API's topic map of the ${what}, as it returns it.` },
    {
      name: "taskStatuses",
      type: { mapOf: "any" },
      required: true,
      from: { field: "task_statuses", absent: {} },
      description: `The state of each of the ${what}'s connector tasks, by task number, as the API reports it (e.g. \`{"0": {"state": "RUNNING"}}\`): which task failed when the status is Broken. As of the last create, update or refresh.`,
    },
    {
      name: "drift",
      type: { object: "cdc:index:DriftReport" },
      ts: { type: "DriftReport" },
      required: true,
      description:
        kind === "Source"
          ? "Changes made outside Pulumi, as of the last refresh: the live config of the keys the program sets compared with the stack's, secrets excluded."
          : "Changes made outside Pulumi, as of the last refresh: configs the API's history recorded after Pulumi's own last write, with the API's masked diff.",
    },
  ];
  return {
    description:
      kind === "Source"
        ? "A CDC source connector: captures the changes of a database or service into topics. Its config is checked against the platform's connector catalogue before any API call; changes made outside Pulumi (config, status, name, tags) show in a plain `pulumi preview`."
        : "A CDC destination connector: writes topics into a warehouse, lake, database or service. Its config is checked against the platform's connector catalogue before any API call; drift is detected through the API's config history, so changes made outside Pulumi show in a plain `pulumi preview`.",
    inputs,
    inputSchema,
    replaceOnChange,
    outputs,
  };
}

/** The tag ids a connector carries (the API lists tags as ids or as objects with one). */
export function connectorTags(c: DestinationConnector): string[] {
  const listed: unknown = c.tags;
  const tags = Array.isArray(listed) ? (listed as unknown[]) : [];
  return tags.flatMap((t) => (typeof t === "string" ? [t] : t && typeof t === "object" && typeof (t as { id?: unknown }).id === "string" ? [(t as { id: string }).id] : []));
}

/** The program's desiredState for a connector's live status: unset for active (the default). */
function desiredStateOf(what: "source" | "destination", status: string | null | undefined): { value?: string; note?: string } {
  const s = (status ?? "").toLowerCase();
  if (s === "paused") return { value: "paused" };
  if (s === "stopped" && what === "destination") return { value: "stopped" };
  if (s === "" || s === "active") return {};
  return { note: `Its status is ${status}: desiredState is left at active (pulumi-cdc pauses, resumes or stops only from Active, Paused or Stopped).` };
}

/** How an import writes a source or destination: its config as the catalogue has it (or raw, for `--raw-config`), its status, its tags. */
export function connectorImport(kind: "Source" | "Destination") {
  const what = kind === "Source" ? "source" : "destination";
  return {
    objects: (listed: readonly DestinationConnector[]) => listed.map((c) => ({ id: c.id ?? "", name: c.name ?? "", tagIds: connectorTags(c), live: c })),
    inputs: (c: DestinationConnector, ctx: ImportContext) => {
      const connector = c.connector ?? "";
      const config = ctx.config(connector, c.config ?? {}, { raw: ctx.rawConfig });
      const state = desiredStateOf(what, c.connector_status);
      if (state.note) ctx.note(state.note);
      return { connector, config, desiredState: state.value, tags: ctx.tags(connectorTags(c)) };
    },
  };
}

/**
 * How a source or destination of a Terraform state reads: the attributes every connector type
 * shares; the rest are its config, through the catalogue.
 */
export function connectorTerraform(kind: "Source" | "Destination"): KindTerraform {
  const what = kind === "Source" ? "source" : "destination";
  return {
    attributes: {
      id: "adoptId",
      name: "name",
      connector: "connector (also given by the resource type)",
      connector_status: "desiredState (paused or stopped; active is the default)",
      tags: "tags",
    },
    dropped: {
      kc_cluster_id: `the Kafka Connect cluster the platform deployed the ${what} to: pulumi-cdc lets the platform choose, and an adopted ${what} stays where it is`,
      timeouts: "Terraform's own operation timeouts: pulumi-cdc's are customTimeouts on the resource",
    },
    live: (a, config) => {
      const id = tfString(a, "id");
      if (!id) return undefined;
      const connector: DestinationConnector = { id, name: tfString(a, "name") ?? "", connector: tfString(a, "connector") ?? "", connector_status: tfString(a, "connector_status") ?? null, config, tags: tfStrings(a, "tags") } as DestinationConnector;
      return { id, live: connector };
    },
  };
}
