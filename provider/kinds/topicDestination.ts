import { echo } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  {
    name: "topicId",
    type: "string",
    required: true,
    replaceOnChange: true,
    description:
      "A topic of an API source (HubSpot, Salesforce, Stripe, ...), `source_<source id>.<connector>.<resource>`, e.g. a source's `topicIds[0]`. Only API sources deliver this way. Changing it replaces the resource.",
  },
  {
    name: "destinationId",
    type: "string",
    ts: { arg: "destination", input: "Destination | pulumi.Input<string>", convert: "idOf" },
    required: true,
    replaceOnChange: true,
    description: "The id of the destination the topic is sent to. Changing it replaces the resource.",
  },
];

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
  },
  recover: "ends",
  description:
    "Sends one topic of an API source to a destination. The platform keeps one binding per source and destination, shared by the topics sent there: deleting this resource detaches this topic only. A detach made in the console shows in a plain `pulumi preview`, and `pulumi up` attaches it again. Import id: `<topicId>|<destinationId>`.",
  inputs,
  outputs: [
    ...echo(inputs, ["topicId", "destinationId"]),
    { name: "bindingId", type: "string", required: true, description: "The platform's binding of this source and destination, shared by the topics sent there." },
    { name: "sourceId", type: "string", required: true, description: "The id of the API source the topic belongs to." },
  ],
  rules: async () => new (await import("../resources/topicDestination.js")).TopicDestinationProvider(),
} satisfies KindSpec<"TopicDestination">;
