import * as pulumi from "@pulumi/pulumi";
import type { DesiredState } from "../catalogue/kind-values.js";
import type { DriftReport } from "../provider/drift.js";
import { CdcResource } from "./dynamic.js";
import { connectorProps, type ConfigInput, type ConfigValue, type TagsInput } from "./inputs.js";

export interface DestinationArgs {
  /** Unique per tenant. Unset: `<resource name>-<random suffix>`. */
  name?: pulumi.Input<string>;
  /** Connector kind, e.g. `snowflake`, `clickhouse`, `postgresql`, `s3`. Changing it replaces the destination. */
  connector: pulumi.Input<string>;
  /** Connector settings; secret keys (passwords, keys) are stored as Pulumi secrets. */
  config: ConfigInput;
  /** The state Pulumi keeps the destination in; the first of `DesiredState` (`active`) is the default. */
  desiredState?: pulumi.Input<DesiredState>;
  /** Take over an existing destination with this id instead of creating one. */
  adoptId?: pulumi.Input<string>;
  /** Tags on the destination: `Tag` resources or tag ids. Unset: its tags are left as they are; `[]` removes them. */
  tags?: TagsInput;
}

/** A CDC destination connector, with drift detection through the API's config history. */
export class Destination extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly connector: pulumi.Output<string>;
  declare readonly config: pulumi.Output<Record<string, ConfigValue>>;
  /** Tag ids, when the program sets tags. */
  declare readonly tags: pulumi.Output<string[] | undefined>;
  declare readonly desiredState: pulumi.Output<DesiredState>;
  /** The API's connector_status: Active, Paused, Stopped, Broken, ... */
  declare readonly status: pulumi.Output<string>;
  declare readonly displayName: pulumi.Output<string>;
  declare readonly createdTimestamp: pulumi.Output<string>;
  /** Changes made outside Pulumi, as of the last refresh, with the API's masked diff. */
  declare readonly drift: pulumi.Output<DriftReport>;

  constructor(name: string, args: DestinationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Destination",
      name,
      connectorProps("destination", name, args, []),
      opts,
    );
  }

  /** Reads an existing destination without managing it: its live config (secrets masked), status and topics. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Destination {
    return new Destination(name, undefined as unknown as DestinationArgs, { ...opts, id });
  }
}
