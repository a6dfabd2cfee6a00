import type * as pulumi from "@pulumi/pulumi";

export type ResourceKind =
  | "Source"
  | "Destination"
  | "Tag"
  | "ClientCredential"
  | "HttpConnection"
  | "LlmConnection"
  | "Agent"
  | "Pipeline"
  | "Transform"
  | "Topic";

/**
 * The dynamic provider of one resource kind. Pulumi serializes this object into the state by
 * value, so it holds nothing but the kind: each method loads `pulumi-cdc/provider` by package
 * name in the provider process and delegates to it.
 *
 * Keep the text of these functions as it is: their serialized form is what every existing
 * stack holds as `__provider`, byte for byte, and a program is expected to produce the same.
 */
function build(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
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

// One object per kind for the whole program: @pulumi/pulumi caches a provider's serialization
// by object identity, so every resource after the first of its kind reuses the text instead of
// serializing the closure again (milliseconds per resource, in every up and preview).
const providers = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

export function dynamicProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (!provider) {
    provider = build(kind);
    providers.set(kind, provider);
  }
  return provider;
}
