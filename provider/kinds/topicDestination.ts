import { z } from "zod";
import { knowable } from "../check.js";
import { declareInputs } from "./inputs.js";
import { echo } from "./shared.js";
import type { DestinationConnector } from "../client/schemas.js";
import type { ImportContext, TenantObjects } from "./imported.js";
import type { KindSpec } from "./spec.js";
import { tfString, type KindTerraform } from "./terraform.js";

/** An API source's topic id: `source_<source id>.<connector>.<resource>`. */
const TOPIC = /^source_[^.]+\..+/;

/** A topic of an API source sent to a destination, as an import finds it. */
export interface ImportedBinding {
  topicId: string;
  sourceId: string;
  destinationId: string;
}

/** `<topic_id>|<destination_id>`: the resource's id, and what `pulumi import` takes. */
export function bindingId(ends: { topicId: string; destinationId: string }): string {
  return `${ends.topicId}|${ends.destinationId}`;
}

/** Each binding, named for its identifier as `contacts to warehouse`: the topic's resource and the destination's name. */
function bindings(listed: readonly ImportedBinding[], tenant: TenantObjects) {
  const destinations = tenant.Destination as readonly DestinationConnector[];
  return listed.map((b) => {
    const destination = destinations.find((d) => d.id === b.destinationId)?.name ?? b.destinationId;
    return { id: bindingId(b), name: `${b.topicId.slice(b.topicId.lastIndexOf(".") + 1)} to ${destination}`, tagIds: [], live: b };
  });
}

const { properties: inputs, schema: inputSchema, replaceOnChange } = declareInputs({
  topicId: {
    type: "string",
    replaceOnChange: true,
    description:
      "A topic of an API source (HubSpot, Salesforce, Stripe, ...), `source_<source id>.<connector>.<resource>`, e.g. a source's `topicIds[0]`. Only API sources deliver this way. Changing it replaces the resource.",
    check: knowable(
      z
        .string({ error: "is required: an API source's topic id, e.g. a HubSpot source's topicIds[0] (source_<id>.hubspot.contacts)" })
        .regex(TOPIC, { error: "must be an API source's topic id, source_<source id>.<connector>.<resource> (e.g. source_<id>.hubspot.contacts)" }),
    ),
  },
  destinationId: {
    type: "string",
    ts: { arg: "destination", input: "Destination | pulumi.Input<string>", convert: "idOf" },
    replaceOnChange: true,
    description: "The id of the destination the topic is sent to. Changing it replaces the resource.",
    check: knowable(z.string({ error: "is required: the Destination resource, or its id" }).min(1, { error: "must not be empty: the Destination resource, or its id" })),
  },
});

export const TOPIC_DESTINATION = {
  name: "TopicDestination",
  token: "cdc:index:TopicDestination",
  noun: "topic destination",
  plural: "topic destinations",
  report: "topic_destination",
  imported: {
    flag: "topic-destinations",
    suffix: "TopicDestination",
    order: 10,
    section: "Topics of API sources sent to destinations (one per topic; attaching one already sent writes nothing)",
    objects: bindings,
    inputs: (b: ImportedBinding, ctx: ImportContext) => {
      ctx.dependsOn("Source", b.sourceId);
      return { topicId: b.topicId, destinationId: ctx.ref("Destination", b.destinationId) };
    },
  },
  terraform: {
    types: ["streamkap_topic_destination"],
    attributes: {
      id: "the resource's id (`<topic_id>|<destination_id>`)",
      topic_id: "topicId (and the source it belongs to)",
      destination_id: "destination (a reference to the adopted destination)",
      binding_id: "(read back: bindingId)",
    },
    live: (a) => {
      const topicId = tfString(a, "topic_id");
      const destinationId = tfString(a, "destination_id");
      if (!topicId || !destinationId) return undefined;
      const binding: ImportedBinding = { topicId, destinationId, sourceId: /^source_([^.]+)\./.exec(topicId)?.[1] ?? "" };
      return { id: bindingId(binding), live: binding };
    },
  } satisfies KindTerraform,
  description:
    "Sends one topic of an API source to a destination. The platform keeps one binding per source and destination, shared by the topics sent there: deleting this resource detaches this topic only. A detach made in the console shows in a plain `pulumi preview`, and `pulumi up` attaches it again. Import id: `<topicId>|<destinationId>`.",
  inputs,
  inputSchema,
  replaceOnChange,
  outputs: [
    ...echo(inputs, ["topicId", "destinationId"]),
    { name: "bindingId", type: "string", required: true, description: "The platform's binding of this source and destination, shared by the topics sent there." },
    { name: "sourceId", type: "string", required: true, description: "The id of the API source the topic belongs to." },
  ],
} satisfies KindSpec<"TopicDestination">;
