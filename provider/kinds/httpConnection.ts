import { adoptInput, echo, nameInput, STRINGS } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  nameInput("HTTP connection"),
  { name: "url", type: "string", required: true, description: "The absolute http(s) URL the agent calls, e.g. `https://tickets.example.com/api/v2`. Changed outside Pulumi, it is drift." },
  {
    name: "headers",
    type: { mapOf: "string" },
    secret: true,
    description:
      "Headers sent with each call, name to value. The values are secrets: encrypted in the stack, sent to the API once and never read back (the API masks them). " +
      "An update sends only the values that changed; a header removed from the program is removed. Header names must be HTTP tokens.",
  },
  adoptInput("HTTP connection", "otherwise one update sets its name, url and header names. A header it has is taken to hold the program's value (the API never shows one)."),
];

export const HTTP_CONNECTION = {
  name: "HttpConnection",
  token: "cdc:index:HttpConnection",
  noun: "HTTP connection",
  plural: "HTTP connections",
  report: "http_connection",
  internal: ["logicalName", "headerDigests", "secretSalt"],
  imported: {
    flag: "http-connections",
    suffix: "HttpConnection",
    order: 2,
    section: "HTTP connections (header values are read from config: the API never shows them)",
  },
  description:
    "An HTTP endpoint an agent may call. Header values are secrets: encrypted in the stack, sent to the API once and never read back; a header added or removed, or the URL changed, outside Pulumi is drift.",
  inputs,
  outputs: [
    ...echo(
      inputs.filter((p) => p.name !== "headers"),
      ["name", "url"],
    ),
    { name: "headerNames", type: STRINGS, required: true, description: "The names of the headers the API holds. Their values are never read back, nor kept in the outputs." },
    { name: "createdFrom", type: "string", required: true, description: "How the connection was created, as the API records it (`created_from`)." },
  ],
  rules: async () => new (await import("../resources/httpConnection.js")).HttpConnectionProvider(),
} satisfies KindSpec<"HttpConnection">;
