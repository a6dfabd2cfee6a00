import * as pulumi from "@pulumi/pulumi";
import type { SourceState } from "../catalogue/kind-values.js";
import type { DriftReport } from "../provider/drift.js";
import { CdcResource } from "./dynamic.js";
import { connectorProps, type ConfigInput, type ConfigValue, type TagsInput } from "./inputs.js";

export interface SourceArgs {
  /** Unique per tenant. Unset: `<resource name>-<random suffix>`. */
  name?: pulumi.Input<string>;
  /** Connector kind (the API's code), e.g. `postgresql`, `mysql`, `mongodb`. Changing it replaces the source. */
  connector: pulumi.Input<string>;
  /** Connector settings; secret keys (passwords, keys) are stored as Pulumi secrets. */
  config: ConfigInput;
  /** The state Pulumi keeps the source in; the first of `SourceState` (`active`) is the default. */
  desiredState?: pulumi.Input<SourceState>;
  /** Take over an existing source with this id instead of creating one. */
  adoptId?: pulumi.Input<string>;
  /** Tags on the source: `Tag` resources or tag ids. Unset: its tags are left as they are; `[]` removes them. */
  tags?: TagsInput;
}

/** A CDC source connector. */
export class Source extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly connector: pulumi.Output<string>;
  declare readonly config: pulumi.Output<Record<string, ConfigValue>>;
  /** Tag ids, when the program sets tags. */
  declare readonly tags: pulumi.Output<string[] | undefined>;
  declare readonly desiredState: pulumi.Output<SourceState>;
  /** The API's connector_status: Active, Paused, Broken, ... */
  declare readonly status: pulumi.Output<string>;
  declare readonly displayName: pulumi.Output<string>;
  declare readonly createdTimestamp: pulumi.Output<string>;
  declare readonly topics: pulumi.Output<string[]>;
  declare readonly topicIds: pulumi.Output<string[]>;
  declare readonly topicMap: pulumi.Output<Record<string, unknown>>;
  /** Changes made outside Pulumi, as of the last refresh. */
  declare readonly drift: pulumi.Output<DriftReport>;

  constructor(name: string, args: SourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Source",
      name,
      connectorProps("source", name, args, ["topics", "topicIds", "topicMap"]),
      opts,
    );
  }

  /** Reads an existing source without managing it: its live config (secrets masked), status and topics. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Source {
    return new Source(name, undefined as unknown as SourceArgs, { ...opts, id });
  }
}
