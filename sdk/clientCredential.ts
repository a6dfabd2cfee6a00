import * as pulumi from "@pulumi/pulumi";
import { CdcResource } from "./dynamic.js";

export interface ClientCredentialArgs {
  /** Role ids (at least one), e.g. from `GET /auth/roles`. */
  roleIds: pulumi.Input<pulumi.Input<string>[]>;
  description?: pulumi.Input<string>;
  serviceId?: pulumi.Input<string>;
}

/**
 * An API client credential for a downstream service. The API has no update and shows the
 * secret only at creation: any change replaces the credential (and so rotates the secret).
 */
export class ClientCredential extends CdcResource {
  declare readonly roleIds: pulumi.Output<string[]>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly serviceId: pulumi.Output<string | undefined>;
  declare readonly clientId: pulumi.Output<string>;
  /** A Pulumi secret: encrypted in state, hidden in output. */
  declare readonly secret: pulumi.Output<string>;
  declare readonly roleKeys: pulumi.Output<string[]>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: ClientCredentialArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "ClientCredential",
      name,
      {
        roleIds: args?.roleIds,
        description: args?.description,
        serviceId: args?.serviceId,
        clientId: undefined,
        secret: undefined,
        roleKeys: undefined,
        createdAt: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["secret"] }),
    );
  }

  /** Reads an existing client credential without managing it (its secret is not readable). */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ClientCredential {
    return new ClientCredential(name, undefined as unknown as ClientCredentialArgs, { ...opts, id });
  }
}
