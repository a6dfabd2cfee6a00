import * as pulumi from "@pulumi/pulumi";

/**
 * What the `Pipeline` class (generated/typescript/kinds.ts) takes beyond its declaration: resources for
 * its source, destination and transforms, which become the API's references to them.
 */

/** A source or destination as a pipeline refers to it (`cdc:index:ConnectorRef`). */
export interface ConnectorRef {
  id: string;
  name?: string;
  connector?: string;
}

/** A transform of a pipeline as its outputs hold it (`cdc:index:PipelineTransform`). */
export interface PipelineTransform {
  id: string;
  topics: string[];
}

/**
 * A transform of the pipeline and the topics of it (names as the transform writes them) that go
 * to the destination. Of the `Transform` class, `PipelineTransformArgs` (sdk/index.ts).
 */
export interface PipelineTransformOf<Transform> {
  transform: Transform | pulumi.Input<string>;
  topics: pulumi.Input<pulumi.Input<string>[]>;
}

/** A source or destination resource: what a reference to it reads. */
interface ConnectorResource extends pulumi.CustomResource {
  readonly name: pulumi.Output<string>;
  readonly connector: pulumi.Output<string>;
}

/** id, name and connector of a connector resource (so the API's references are complete), or just an id. */
export function connectorRef(value: ConnectorResource | pulumi.Input<string>, _args?: object): pulumi.Input<ConnectorRef> {
  if (pulumi.CustomResource.isInstance(value)) {
    const r = value as ConnectorResource;
    return pulumi.all([r.id, r.name, r.connector]).apply(([id, name, connector]) => ({ id, name, connector }));
  }
  return pulumi.output(value as pulumi.Input<string>).apply((id) => ({ id }));
}

/** Each transform as the API refers to it: the id of a `Transform` resource, or the id given. */
export function pipelineTransforms(transforms: PipelineTransformOf<pulumi.CustomResource>[], _args?: object): Array<{ id: pulumi.Input<string>; topics: pulumi.Input<pulumi.Input<string>[]> }> {
  return transforms.map((t) => ({ id: pulumi.CustomResource.isInstance(t.transform) ? (t.transform.id as pulumi.Output<string>) : t.transform, topics: t.topics }));
}
