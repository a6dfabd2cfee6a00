import * as pulumi from "@pulumi/pulumi";
import type { KafkaOperation, KafkaPatternType, KafkaResource } from "../catalogue/kind-values.js";
import { CdcResource } from "./dynamic.js";

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

export interface KafkaUserArgs {
  /** 1-24 letters, digits and dashes, neither first nor last a dash. Changing it replaces the user. */
  username: pulumi.Input<string>;
  /**
   * 12-128 characters; a secret (encrypted in the stack, never shown). The API never returns it:
   * the stack keeps a keyed digest, and changing it updates the user in place.
   */
  password: pulumi.Input<string>;
  /** IPs or CIDR ranges the user may connect from (sent comma-separated, at most 1000 characters). Unset or []: any. */
  whitelistIps?: pulumi.Input<pulumi.Input<string>[]>;
  /** Also create a schema-registry user (the `schemaProxyEndpoint` output). Default false. */
  isCreateSchemaRegistry?: pulumi.Input<boolean>;
  /** The ACL rules, a set: order and duplicates do not matter. Default: none. */
  kafkaAcls?: pulumi.Input<pulumi.Input<KafkaAclArgs>[]>;
}

/**
 * A Kafka user of the platform's Kafka access: a broker user with ACLs, for clients that read or
 * write the platform's topics. ACLs, IPs or the schema-registry user changed outside Pulumi are
 * drift, shown in a plain `pulumi preview` and by `pulumi-cdc drift`.
 */
export class KafkaUser extends CdcResource {
  declare readonly username: pulumi.Output<string>;
  declare readonly whitelistIps: pulumi.Output<string[]>;
  declare readonly isCreateSchemaRegistry: pulumi.Output<boolean>;
  declare readonly kafkaAcls: pulumi.Output<KafkaAcl[]>;
  /** Where the user's Kafka clients connect (`bootstrap.servers`). */
  declare readonly kafkaProxyEndpoint: pulumi.Output<string>;
  /** The schema registry's URL for this user; empty without `isCreateSchemaRegistry`. */
  declare readonly schemaProxyEndpoint: pulumi.Output<string>;

  constructor(name: string, args: KafkaUserArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "KafkaUser",
      name,
      {
        logicalName: name,
        username: args?.username,
        // Secret before registration, so it is encrypted in state and never shown.
        password: args?.password === undefined ? undefined : pulumi.secret(args.password),
        whitelistIps: args?.whitelistIps,
        isCreateSchemaRegistry: args?.isCreateSchemaRegistry,
        kafkaAcls: args?.kafkaAcls,
        kafkaProxyEndpoint: undefined,
        schemaProxyEndpoint: undefined,
        passwordDigest: undefined,
        secretSalt: undefined,
        createdFrom: undefined,
      },
      opts,
    );
  }

  /** Reads an existing Kafka user (its id is its username) without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): KafkaUser {
    return new KafkaUser(name, undefined as unknown as KafkaUserArgs, { ...opts, id });
  }
}
