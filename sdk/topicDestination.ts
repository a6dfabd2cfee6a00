import * as pulumi from "@pulumi/pulumi";
import { CdcResource } from "./dynamic.js";
import type { Destination } from "./destination.js";

export interface TopicDestinationArgs {
  /**
   * A topic of an API source, e.g. `hubspot.topicIds[0]` (`source_<id>.hubspot.contacts`).
   * Only API sources deliver this way (the others go through a `Pipeline`). Changing it replaces the resource.
   */
  topicId: pulumi.Input<string>;
  /** The `Destination` resource, or a destination id. Changing it replaces the resource. */
  destination: Destination | pulumi.Input<string>;
}

/**
 * Sends one topic of an API source (HubSpot, Salesforce, Stripe, ...) to a destination. The
 * platform keeps one binding per source and destination, shared by the topics sent there:
 * destroying this resource detaches this topic only. A detach made in the console shows in a
 * plain `pulumi preview`, and `pulumi up` attaches it again. Import id: `<topicId>|<destinationId>`.
 */
export class TopicDestination extends CdcResource {
  declare readonly topicId: pulumi.Output<string>;
  declare readonly destinationId: pulumi.Output<string>;
  /** The platform's binding of this source and destination, shared by the topics sent there. */
  declare readonly bindingId: pulumi.Output<string>;
  declare readonly sourceId: pulumi.Output<string>;

  constructor(name: string, args: TopicDestinationArgs, opts?: pulumi.CustomResourceOptions) {
    const destination = args?.destination;
    super(
      "TopicDestination",
      name,
      {
        topicId: args?.topicId,
        destinationId: destination === undefined ? undefined : pulumi.CustomResource.isInstance(destination) ? (destination as Destination).id : destination,
        bindingId: undefined,
        sourceId: undefined,
      },
      opts,
    );
  }

  /** Reads a binding (`<topicId>|<destinationId>`) without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): TopicDestination {
    return new TopicDestination(name, undefined as unknown as TopicDestinationArgs, { ...opts, id });
  }
}
