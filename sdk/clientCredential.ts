import * as pulumi from "@pulumi/pulumi";
import { CdcResource } from "./dynamic.js";

export interface ClientCredentialArgs {
  /** Role ids (at least one), e.g. from `GET /auth/roles`. Changed in place. */
  roleIds: pulumi.Input<pulumi.Input<string>[]>;
  /** Changed in place; once set, the API cannot clear it: removing it leaves it as it is. */
  description?: pulumi.Input<string>;
  /** Changing it replaces the credential, with a new secret. */
  serviceId?: pulumi.Input<string>;
}

/**
 * An API client credential for a downstream service. Roles and description change in place,
 * keeping the client id and the secret (which the API shows only at creation); a new service id
 * replaces the credential, and so rotates the secret.
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
