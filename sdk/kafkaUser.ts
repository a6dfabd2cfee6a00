import * as pulumi from "@pulumi/pulumi";
import type { KafkaOperation, KafkaPatternType, KafkaResource } from "../catalogue/kind-values.js";

/** What the `KafkaUser` class (generated/typescript/kinds.ts) takes beyond its declaration: its ACL rules' types. */

/** What an ACL rule allows. A GROUP rule takes fewer (KAFKA_GROUP_OPERATIONS). */
export type { KafkaOperation, KafkaPatternType, KafkaResource };

/** One ACL rule of a Kafka user. */
export interface KafkaAclArgs {
  /** The topic (or, for a GROUP rule, the consumer group) name, or its prefix with PREFIXED. */
  topicName: pulumi.Input<string>;
  operation: pulumi.Input<KafkaOperation>;
  /** LITERAL: exactly `topicName`; PREFIXED: every name that starts with it. */
  resourcePatternType: pulumi.Input<KafkaPatternType>;
  /** A topic (`TOPIC`, the default) or a consumer group (`GROUP`). */
  resource?: pulumi.Input<KafkaResource>;
}

/** An ACL rule as the resource's outputs hold it (`resource` filled in). */
export interface KafkaAcl {
  topicName: string;
  operation: KafkaOperation;
  resourcePatternType: KafkaPatternType;
  resource: KafkaResource;
}
