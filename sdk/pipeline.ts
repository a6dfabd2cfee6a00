import * as pulumi from "@pulumi/pulumi";
import { CdcResource } from "./dynamic.js";
import { tagIds, type TagsInput } from "./inputs.js";
import type { Destination } from "./destination.js";
import type { Source } from "./source.js";
import type { Transform } from "./transform.js";

/** A transform of the pipeline and the topics of it (names as the transform writes them) that go to the destination. */
export interface PipelineTransformArgs {
  transform: Transform | pulumi.Input<string>;
  topics: pulumi.Input<pulumi.Input<string>[]>;
}

export interface PipelineArgs {
  /** Unique per tenant. Unset: `<resource name>-<random suffix>`. */
  name?: pulumi.Input<string>;
  /** The `Source` resource, or a source id. */
  source: Source | pulumi.Input<string>;
  /** The `Destination` resource, or a destination id. */
  destination: Destination | pulumi.Input<string>;
  /** The source topics that go to the destination, as named by the source (`public.orders`). Default: none. */
  sourceTopics?: pulumi.Input<pulumi.Input<string>[]>;
  /** Transforms, each with the topics of it that go to the destination. */
  transforms?: PipelineTransformArgs[];
  /** Snapshot tables newly added to the pipeline. Default false. */
  snapshotNewTables?: pulumi.Input<boolean>;
  /** `Tag` resources or tag ids. Unset: the pipeline's tags are left as they are; `[]` removes them. */
  tags?: TagsInput;
  /** Take over an existing pipeline with this id instead of creating one (no write when it already matches). */
  adoptId?: pulumi.Input<string>;
}

/** id, name and connector of a connector resource (so the API's references are complete), or just an id. */
function connectorRef(value: Source | Destination | pulumi.Input<string>): pulumi.Input<{ id: string; name?: string; connector?: string }> {
  if (pulumi.CustomResource.isInstance(value)) {
    const r = value as Source | Destination;
    return pulumi.all([r.id, r.name, r.connector]).apply(([id, name, connector]) => ({ id, name, connector }));
  }
  return pulumi.output(value as pulumi.Input<string>).apply((id) => ({ id }));
}

/** A CDC pipeline: a source's topics, optionally through transforms, into a destination. */
export class Pipeline extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly source: pulumi.Output<{ id: string; name?: string; connector?: string }>;
  declare readonly destination: pulumi.Output<{ id: string; name?: string; connector?: string }>;
  declare readonly sourceTopics: pulumi.Output<string[]>;
  declare readonly transforms: pulumi.Output<Array<{ id: string; topics: string[] }>>;
  declare readonly snapshotNewTables: pulumi.Output<boolean>;
  /** Tag ids, when the program sets tags. */
  declare readonly tags: pulumi.Output<string[] | undefined>;
  /** The tags the pipeline has. */
  declare readonly tagIds: pulumi.Output<string[]>;
  declare readonly status: pulumi.Output<string>;
  /** The ids of every topic the pipeline sends, as the API names them. */
  declare readonly topicIds: pulumi.Output<string[]>;

  constructor(name: string, args: PipelineArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Pipeline",
      name,
      {
        logicalName: name,
        name: args?.name,
        source: args ? connectorRef(args.source) : undefined,
        destination: args ? connectorRef(args.destination) : undefined,
        sourceTopics: args?.sourceTopics,
        transforms: args?.transforms?.map((t) => ({ id: pulumi.CustomResource.isInstance(t.transform) ? (t.transform as Transform).id : t.transform, topics: t.topics })),
        snapshotNewTables: args?.snapshotNewTables,
        tags: tagIds(args?.tags),
        adoptId: args?.adoptId,
        tagIds: undefined,
        status: undefined,
        topicIds: undefined,
      },
      opts,
    );
  }

  /** Reads an existing pipeline without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Pipeline {
    return new Pipeline(name, undefined as unknown as PipelineArgs, { ...opts, id });
  }
}
