import type * as pulumi from "@pulumi/pulumi";

export type ResourceKind = "Source" | "Destination" | "Tag" | "ClientCredential";

/**
 * The dynamic provider of one resource kind. Pulumi serializes this object into the state by
 * value, so it holds nothing but the kind: each method loads `pulumi-cdc/provider` by package
 * name in the provider process and delegates to it.
 */
export function dynamicProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  return {
    configure: async (req) => require("pulumi-cdc/provider").configure(req.config),
    check: async (olds, news) => require("pulumi-cdc/provider").provider(kind).check(olds, news),
    diff: async (id, olds, news) => require("pulumi-cdc/provider").provider(kind).diff(id, olds, news),
    create: async (inputs) => require("pulumi-cdc/provider").provider(kind).create(inputs),
    read: async (id, props) => require("pulumi-cdc/provider").provider(kind).read(id, props),
    update: async (id, olds, news) => require("pulumi-cdc/provider").provider(kind).update(id, olds, news),
    delete: async (id, props) => require("pulumi-cdc/provider").provider(kind).delete(id, props),
  };
}
