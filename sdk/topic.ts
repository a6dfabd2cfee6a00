import * as pulumi from "@pulumi/pulumi";
import { CdcResource } from "./dynamic.js";
import { tagIds, type TagsInput } from "./inputs.js";

export interface TopicArgs {
  /** The id of a topic a source or transform made, e.g. `source.topicIds[0]` (`source_<id>.public.orders`). Changing it replaces the resource. */
  topicId: pulumi.Input<string>;
  /** Partitions; they can only be increased (a decrease fails `pulumi preview`). */
  partitionCount: pulumi.Input<number>;
  /** `Tag` resources or tag ids. Unset: left as they are; `[]` removes them. */
  tags?: TagsInput;
}

/**
 * Tuning of an existing Kafka topic: partitions and tags. The topic belongs to its source or
 * transform: Pulumi neither creates it nor deletes it (destroy leaves it in place).
 */
export class Topic extends CdcResource {
  declare readonly topicId: pulumi.Output<string>;
  declare readonly partitionCount: pulumi.Output<number>;
  /** The topic's name without its owner's prefix. */
  declare readonly name: pulumi.Output<string>;
  declare readonly tags: pulumi.Output<string[] | undefined>;
  declare readonly tagIds: pulumi.Output<string[]>;

  constructor(name: string, args: TopicArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Topic",
      name,
      { topicId: args?.topicId, partitionCount: args?.partitionCount, tags: tagIds(args?.tags), name: undefined, tagIds: undefined },
      opts,
    );
  }

  /** Reads a topic's tuning without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Topic {
    return new Topic(name, undefined as unknown as TopicArgs, { ...opts, id });
  }
}
