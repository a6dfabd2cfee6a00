import { echo, STRINGS } from "./shared.js";
import type { KindSpec, PropertySpec } from "./spec.js";

const inputs: PropertySpec[] = [
  {
    name: "roleIds",
    type: STRINGS,
    required: true,
    description: "The ids of the roles the credential is bound to, at least one (`getRoles` lists them). Changed in place: the client id and the secret stay.",
  },
  {
    name: "description",
    type: "string",
    description: "What the credential is for, at most 1024 characters. Changed in place. Once set it cannot be cleared (the API keeps it): removing it from the program leaves it as it is, with no diff.",
  },
  {
    name: "serviceId",
    type: "string",
    replaceOnChange: true,
    description: "The id of the service the credential belongs to. Unset: none. Changing it replaces the credential, with a new secret.",
  },
];

export const CLIENT_CREDENTIAL = {
  name: "ClientCredential",
  token: "cdc:index:ClientCredential",
  noun: "client credential",
  plural: "client credentials",
  report: "client_credential",
  imported: { flag: "client-credentials", suffix: "ClientCredential", order: 11, listedOnly: true },
  recover: "credential",
  description:
    "An API client credential for a downstream service. Its roles and description change in place (the client id and secret stay); a new service id replaces it, with a new secret. The API shows the secret only at creation: it is a Pulumi secret.",
  inputs,
  outputs: [
    ...echo(inputs, ["roleIds"]),
    { name: "clientId", type: "string", required: true, description: "The credential's client id, exchanged with the secret for an access token." },
    {
      name: "secret",
      type: "string",
      secret: true,
      // The TypeScript class has always typed it present; kept so, for the programs that rely on it.
      ts: { output: "string" },
      description: "The credential's secret, returned by the API at creation only: a Pulumi secret, encrypted in the stack. Absent for a credential Pulumi imported or adopted: the API showed its secret once, to its creator.",
    },
    { name: "roleKeys", type: STRINGS, required: true, description: "The keys of the credential's roles." },
    { name: "createdAt", type: "string", required: true, description: "When the credential was created, as the API reports it." },
  ],
  rules: async () => new (await import("../resources/clientCredential.js")).ClientCredentialProvider(),
} satisfies KindSpec<"ClientCredential">;
