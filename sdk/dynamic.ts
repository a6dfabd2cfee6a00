import * as pulumi from "@pulumi/pulumi";
import { dynamicToken } from "../provider/kinds/dynamic-token.js";
import type { KindName } from "../provider/kinds/index.js";
import { PLAIN_SECRETS } from "../provider/plain-secrets.js";
import { plainSecretsInput } from "./inputs.js";

/** A kind of the registry (provider/kinds/), by name. */
export type ResourceKind = KindName;

/**
 * The `__provider` text of a kind: a module whose `handler()` gives the dynamic provider, as
 * the engine's Node.js dynamic-provider host expects. The host loads it in the provider process,
 * where it takes the provider from this package by name (`pulumi-cdc/provider`).
 *
 * pulumi.dynamic.Resource would serialize a closure here instead: 2.3 KB of wrapped functions
 * that the engine stores twice (inputs and outputs) in every resource's state and writes out in
 * every checkpoint, so on a stack of 1,000 connectors `up` and `destroy` spent most of their time
 * writing provider text. This line holds the same knowledge in 90 bytes.
 *
 * An export (not a constant) so a test can make the classes write the older, serialized form.
 */
export function providerText(kind: ResourceKind): pulumi.Input<string> {
  return `exports.handler = () => require("pulumi-cdc/provider").dynamicProvider(${JSON.stringify(kind)});\n`;
}

/**
 * A resource of one of our kinds, served by the engine's Node.js dynamic-provider host: what
 * pulumi.dynamic.Resource registers (the `pulumi-nodejs:dynamic/<module>:<type>` token and
 * `__provider` among the inputs), with our own provider text.
 */
export abstract class CdcResource extends pulumi.CustomResource {
  constructor(kind: ResourceKind, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    // Read through the module's exports at each construction, so the test above can replace it.
    // The secret connector settings the program gave in plain, by name (sdk/inputs.ts), for policy packs.
    const plain = plainSecretsInput(props.config);
    super(dynamicToken(kind), name, { ...props, ...(plain ? { [PLAIN_SECRETS]: plain } : {}), __provider: exports.providerText(kind) }, opts);
  }
}
