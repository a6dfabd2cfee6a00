import * as pulumi from "@pulumi/pulumi";
import type { TagType } from "../catalogue/kind-values.js";
import { CdcResource } from "./dynamic.js";

export interface TagArgs {
  /** Unique per tenant. Unset: `<resource name>-<random suffix>`. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** What the tag is for, at least one `TagType`, as the platform spells it. */
  type?: pulumi.Input<pulumi.Input<TagType>[]>;
  /** Take over an existing tag with this id instead of creating one. */
  adoptId?: pulumi.Input<string>;
}

/** A tag for organising pipelines. */
export class Tag extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly type: pulumi.Output<TagType[]>;
  declare readonly system: pulumi.Output<boolean>;
  declare readonly custom: pulumi.Output<boolean>;

  constructor(name: string, args: TagArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(
      "Tag",
      name,
      { logicalName: name, name: args.name, description: args.description, type: args.type, adoptId: args.adoptId, system: undefined, custom: undefined },
      opts,
    );
  }

  /** Reads an existing tag without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Tag {
    return new Tag(name, {}, { ...opts, id });
  }
}
