import * as pulumi from "@pulumi/pulumi";
import type { CdcClient } from "../provider/client/index.js";

/**
 * Lookups for programs: read objects the stack does not manage. They run in the program, with
 * the credentials the resources use (stack config `cdc:*`, then the `CDC_*` variables), and fail
 * with a clear message when nothing, or more than one object, matches.
 */

type Lookup = typeof import("../provider/lookup.js");

async function withClient<T>(fn: (api: CdcClient, lookup: Lookup) => Promise<T>): Promise<T> {
  // Loaded by the first lookup, not with the SDK: the client brings undici and zod, about 80 ms of
  // CPU in every `pulumi up` and preview, and most programs never look anything up.
  const [{ CdcClient, resolveSettings }, lookup] = await Promise.all([import("../provider/client/index.js"), import("../provider/lookup.js")]);
  // The program's own view of the stack config; secrets come decrypted, as the provider gets them.
  const settings = resolveSettings({ get: (key: string) => pulumi.runtime.getConfig(key) });
  // Its own client, closed afterwards: an open keep-alive pool would hold the program open.
  const api = new CdcClient({ settings });
  try {
    return await fn(api, lookup);
  } finally {
    await api.close();
  }
}

export type {
  ConnectorLookup,
  KafkaUserLookup,
  RoleLookup as Role,
  TagListLookup,
  TagLookup,
  TopicLookup,
  TopicMetricsLookup,
  TransformLookup,
} from "../provider/lookup.js";
import type { ConnectorLookup, KafkaUserLookup, RoleLookup, TagListLookup, TagLookup, TopicLookup, TopicMetricsLookup, TransformLookup } from "../provider/lookup.js";

/** The roles a ClientCredential can be bound to (`GET /auth/roles`). */
export function getRoles(): Promise<RoleLookup[]> {
  return withClient((api, lookup) => lookup.lookupRoles(api));
}

/** A source by its exact name, e.g. to use its id or topics in a program that does not manage it. */
export function getSource(args: { name: string }): Promise<ConnectorLookup> {
  return withClient((api, lookup) => lookup.lookupConnector(api, "source", args.name));
}

/** A destination by its exact name. */
export function getDestination(args: { name: string }): Promise<ConnectorLookup> {
  return withClient((api, lookup) => lookup.lookupConnector(api, "destination", args.name));
}

/** A tag by its exact name. */
export function getTag(args: { name: string }): Promise<TagLookup> {
  return withClient((api, lookup) => lookup.lookupTag(api, args.name));
}

/** Tags, all or only those named exactly `name` and those for any of `type`; a list (empty when none match). */
export function getTags(args: { name?: string; type?: string | string[] } = {}): Promise<TagListLookup[]> {
  return withClient((api, lookup) => lookup.lookupTags(api, args));
}

/**
 * Topics with their partition counts: all, or those of one source, destination or transform
 * (given by its exact name), optionally only the one named `name`; a list (empty when none match).
 */
export function getTopics(args: { source?: string; destination?: string; transform?: string; name?: string } = {}): Promise<TopicLookup[]> {
  return withClient((api, lookup) => lookup.lookupTopics(api, args));
}

/** One topic by its id (`source_<id>.public.orders`), with its partition count. */
export function getTopic(args: { id: string }): Promise<TopicLookup> {
  return withClient((api, lookup) => lookup.lookupTopic(api, args));
}

/**
 * The API's metrics of topics, by id: partitions, replication, retention, last message, snapshot
 * status and record errors, one entry per topic in the order asked. A topic not the tenant's (or
 * of no such id) is left out, with a warning naming it.
 */
export function getTopicMetrics(args: { ids: string[] }): Promise<TopicMetricsLookup[]> {
  return withClient((api, lookup) => lookup.lookupTopicMetrics(api, args, (message) => void pulumi.log.warn(`getTopicMetrics: ${message}`)));
}

/** A transform by its exact name: its id, type, topics (by name and id) and settings (secrets masked). */
export function getTransform(args: { name: string }): Promise<TransformLookup> {
  return withClient((api, lookup) => lookup.lookupTransform(api, args));
}

/** A Kafka user by its exact username: ACLs, IPs and endpoints; never a password. */
export function getKafkaUser(args: { username: string }): Promise<KafkaUserLookup> {
  return withClient((api, lookup) => lookup.lookupKafkaUser(api, args));
}

/**
 * A lookup's Output form, after Pulumi's `get<X>Output` convention: its arguments may be Inputs,
 * such as the outputs of a resource of the same program. While one is unknown (a preview before
 * that resource exists) the result is unknown too and nothing is asked; `pulumi up` looks it up.
 */
function outputForm<A extends object, R>(lookup: (args: A) => Promise<R>) {
  return (args: { [K in keyof A]: pulumi.Input<A[K]> }): pulumi.Output<R> =>
    pulumi.output(args).apply((known) => lookup(known as unknown as A)) as unknown as pulumi.Output<R>;
}

export const getSourceOutput = outputForm(getSource);
export const getDestinationOutput = outputForm(getDestination);
export const getTagOutput = outputForm(getTag);
export const getTagsOutput = outputForm(getTags);
export const getTopicsOutput = outputForm(getTopics);
export const getTopicOutput = outputForm(getTopic);
export const getTopicMetricsOutput = outputForm(getTopicMetrics);
export const getTransformOutput = outputForm(getTransform);
export const getKafkaUserOutput = outputForm(getKafkaUser);
