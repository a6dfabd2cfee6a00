import * as pulumi from "@pulumi/pulumi";
import { getSource, getTransform, KafkaUser, type KafkaAclArgs } from "pulumi-cdc";

// A read-only consumer (an analytics team's, say) for the topics of the pipeline example
// (examples/pipeline), which this program reads but does not manage: the lookups find its source
// and transform by their exact names, in the same stack name by default.
const config = new pulumi.Config();
const env = pulumi.getStack();
const sourceName = config.get("sourceName") ?? `orders-${env}`;
const transformName = config.get("transformName") ?? `orders-clean-${env}`;
const group = config.get("consumerGroupPrefix") ?? "analytics-";

const source = pulumi.output(getSource({ name: sourceName }));
const clean = pulumi.output(getTransform({ name: transformName }));

const consumer = new KafkaUser("analytics", {
  username: config.get("username") ?? `analytics-${env}`,
  password: config.requireSecret("kafkaPassword"),
  // Where the consumers run; unset, any address may connect.
  whitelistIps: config.getObject<string[]>("whitelistIps") ?? ["10.0.0.0/8"],
  kafkaAcls: pulumi.all([source, clean]).apply(([s, t]): KafkaAclArgs[] => [
    // Every topic of the source (one per table, `source_<id>.<table>`), tables added later too.
    { topicName: `source_${s.id}.`, operation: "READ", resourcePatternType: "PREFIXED" },
    { topicName: `source_${s.id}.`, operation: "DESCRIBE", resourcePatternType: "PREFIXED" },
    // The transform's outputs (`transform_<id>_<version>.<name>`), whichever version is live.
    { topicName: `transform_${t.id}_`, operation: "READ", resourcePatternType: "PREFIXED" },
    { topicName: `transform_${t.id}_`, operation: "DESCRIBE", resourcePatternType: "PREFIXED" },
    // Its consumer groups, to commit offsets: any whose name starts with the prefix.
    { topicName: group, operation: "READ", resourcePatternType: "PREFIXED", resource: "GROUP" },
  ]),
});

export const username = consumer.username;
/** `bootstrap.servers` of the consumers. */
export const bootstrapServers = consumer.kafkaProxyEndpoint;
export const acls = consumer.kafkaAcls;
