import { Reference, type Ref, type Resource, type Value } from "./model.js";

const refValue = (r: Ref) => new Reference(r);

/**
 * The inputs of a resource on the provider plugin (`cdc:index:<Kind>`), in the order a person
 * reads them: what the YAML program writes as properties, and the Python one as keyword arguments.
 */
export function pluginInputs(r: Resource): Array<[string, Value]> {
  const adopt: [string, Value] = ["adoptId", r.id];
  const tags = (list: readonly Ref[] | undefined): Array<[string, Value]> => (list ? [["tags", list.map(refValue)]] : []);
  switch (r.kind) {
    case "Tag":
      return [["name", r.name], ...(r.description !== undefined ? [["description", r.description] as [string, Value]] : []), ["type", r.type], adopt];
    case "Source":
    case "Destination":
      return [
        ["name", r.name],
        ["connector", r.connector],
        ["config", Object.fromEntries(r.settings.config.map((s) => [s.key, s.value]))],
        ...(r.desiredState ? [["desiredState", r.desiredState] as [string, Value]] : []),
        ...tags(r.tags),
        adopt,
      ];
    case "Transform":
      return [
        ["name", r.name],
        ["transform", r.transform],
        ["config", Object.fromEntries(r.settings.config.map((s) => [s.key, s.value]))],
        ...(r.implementation ? [["implementation", r.implementation] as [string, Value]] : []),
        ...(r.deploy ? [["deploy", true] as [string, Value]] : []),
        ...tags(r.tags),
        adopt,
      ];
    case "Pipeline":
      return [
        ["name", r.name],
        ["source", { id: refValue(r.source) }],
        ["destination", { id: refValue(r.destination) }],
        ...(r.sourceTopics.length > 0 ? [["sourceTopics", r.sourceTopics] as [string, Value]] : []),
        ...(r.transforms.length > 0 ? [["transforms", r.transforms.map((t) => ({ id: refValue(t.ref), topics: t.topics }))] as [string, Value]] : []),
        ...(r.snapshotNewTables ? [["snapshotNewTables", true] as [string, Value]] : []),
        ...tags(r.tags),
        adopt,
      ];
    case "HttpConnection":
      return [["name", r.name], ["url", r.url], ...(r.headers.length > 0 ? [["headers", Object.fromEntries(r.headers)] as [string, Value]] : []), adopt];
    case "LlmConnection":
      return [["name", r.name], ["provider", r.provider], ["model", r.model], ["apiKey", r.apiKey], ...(r.baseUrl ? [["baseUrl", r.baseUrl] as [string, Value]] : []), adopt];
    case "Agent":
      return [
        ["name", r.name],
        ["instructions", r.instructions],
        ...(r.description ? [["description", r.description] as [string, Value]] : []),
        ["llmConnectionId", refValue(r.llmConnection)],
        ...(r.httpConnections.length > 0 ? [["httpConnectionIds", r.httpConnections.map(refValue)] as [string, Value]] : []),
        ...(r.deployed === false ? [["deployed", false] as [string, Value]] : []),
        adopt,
      ];
    case "Topic":
      // A topic has no adoptId: the platform makes it, and the resource takes it over by its topicId.
      return [["topicId", r.topicId], ["partitionCount", r.partitionCount], ...tags(r.tags)];
    case "TopicDestination":
      return [["topicId", r.topicId], ["destinationId", refValue(r.destination)]];
    case "DestinationSmtChain":
      return [["destination", refValue(r.destination)], ["transforms", r.transforms]];
  }
}
