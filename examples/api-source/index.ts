import * as pulumi from "@pulumi/pulumi";
import { Destination, hubspotSource, snowflakeDestination, Source, TopicDestination } from "pulumi-cdc";

// An API source reads a SaaS vendor's REST API (here HubSpot) instead of a database log. It
// delivers with TopicDestination bindings, one per topic and destination, not with a Pipeline.
const config = new pulumi.Config();
const env = pulumi.getStack();
const resources = config.getObject<string[]>("resources") ?? ["contacts", "companies"];

const crm = new Source("crm", {
  name: `crm-${env}`,
  ...hubspotSource({
    resources,
    // A private app's access token; `authMode: "oauth"` with an `oauthGrantId` signs in through HubSpot instead.
    token: config.requireSecret("hubspotToken"),
  }),
});

const warehouse = new Destination("warehouse", {
  name: `crm-warehouse-${env}`,
  ...snowflakeDestination({
    snowflakeUrlName: "acme.snowflakecomputing.com",
    snowflakeUserName: "CDC_LOADER",
    snowflakePrivateKey: config.requireSecret("snowflakePrivateKey"),
    snowflakeDatabaseName: "ANALYTICS",
    snowflakeSchemaName: "HUBSPOT",
  }),
});

// Each resource of the source is a topic, `source_<id>.hubspot.<resource>`: send each to the warehouse.
export const bindings = resources.map(
  (resource) =>
    new TopicDestination(`${resource}-to-warehouse`, {
      topicId: pulumi.interpolate`source_${crm.id}.hubspot.${resource}`,
      destination: warehouse,
    }).id,
);
export const sourceId = crm.id;
export const sourceTopics = crm.topicIds;
export const destinationId = warehouse.id;
