import { LLM_PROVIDERS } from "../../catalogue/kind-values.js";
import { adoptInput, echo, list, nameInput } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  { ...nameInput("LLM connection"), replaceOnChange: true },
  { name: "provider", type: "string", ts: { type: "LlmProvider" }, required: true, replaceOnChange: true, description: `The model's provider: ${list(LLM_PROVIDERS)}.` },
  { name: "model", type: "string", required: true, replaceOnChange: true, description: "The model's name, e.g. `gpt-4o`." },
  {
    name: "apiKey",
    type: "string",
    required: true,
    secret: true,
    replaceOnChange: true,
    description: "The provider's API key: a secret, stored encrypted by the API and never shown again (the stack keeps only a keyed digest of it).",
  },
  { name: "baseUrl", type: "string", replaceOnChange: true, description: "The absolute http(s) URL of the provider's API, for a self-hosted or regional endpoint. Unset: the provider's default." },
  adoptInput("LLM connection", "the API cannot update one, so it must already equal the program (its API key, never shown, is taken to be the program's)."),
];

export const LLM_CONNECTION = {
  name: "LlmConnection",
  token: "cdc:index:LlmConnection",
  noun: "LLM connection",
  plural: "LLM connections",
  report: "llm_connection",
  internal: ["logicalName", "apiKeyDigest", "secretSalt"],
  imported: {
    flag: "llm-connections",
    suffix: "LlmConnection",
    order: 1,
    section: "LLM connections (the API key is read from config: the API never shows it)",
  },
  description:
    "A connection to a language model. The API cannot update one, so any change replaces it: the replacement is created first, the agents of the stack that use it are repointed, then the old one is deleted.",
  inputs,
  outputs: [
    ...echo(
      inputs.filter((p) => p.name !== "apiKey"),
      ["name", "provider", "model"],
    ),
    { name: "createdFrom", type: "string", required: true, description: "How the connection was created, as the API records it (`created_from`)." },
  ],
  rules: async () => new (await import("../resources/llmConnection.js")).LlmConnectionProvider(),
} satisfies KindSpec<"LlmConnection">;
