import * as pulumi from "@pulumi/pulumi";
import type { LlmProvider } from "../catalogue/kind-values.js";
import { CdcResource } from "./dynamic.js";

export interface HttpConnectionArgs {
  /** Unset: `<resource name>-<random suffix>`. */
  name?: pulumi.Input<string>;
  /** The absolute http(s) URL the agent calls. */
  url: pulumi.Input<string>;
  /**
   * Header name → value. The values are secrets (encrypted in state, never shown); the API keeps
   * them encrypted and an update sends only the ones that changed.
   */
  headers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Take over an existing HTTP connection with this id instead of creating one (no write when its name, url and header names match). */
  adoptId?: pulumi.Input<string>;
}

/** An HTTP endpoint an agent may call, with secret headers. */
export class HttpConnection extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  /** The header names the API holds. Values are never read back, nor kept in outputs. */
  declare readonly headerNames: pulumi.Output<string[]>;

  constructor(name: string, args: HttpConnectionArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "HttpConnection",
      name,
      {
        logicalName: name,
        name: args?.name,
        url: args?.url,
        // Secret as a whole before registration, so no header value reaches state or logs in plain.
        headers: args?.headers === undefined ? undefined : pulumi.secret(args.headers),
        adoptId: args?.adoptId,
        headerNames: undefined,
        headerDigests: undefined,
        secretSalt: undefined,
        createdFrom: undefined,
      },
      opts,
    );
  }

  /** Reads an existing HTTP connection without managing it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): HttpConnection {
    return new HttpConnection(name, undefined as unknown as HttpConnectionArgs, { ...opts, id });
  }
}

export interface LlmConnectionArgs {
  name?: pulumi.Input<string>;
  /** The model's provider, one of `LlmProvider`. */
  provider: pulumi.Input<LlmProvider>;
  model: pulumi.Input<string>;
  /** The provider's API key: a secret, stored encrypted by the API and never shown again. */
  apiKey: pulumi.Input<string>;
  baseUrl?: pulumi.Input<string>;
  /** Take over an existing LLM connection with this id instead of creating one; it must already match (the API cannot update one). */
  adoptId?: pulumi.Input<string>;
}

/**
 * A connection to a language model. The API cannot update one: any change replaces it, and the
 * agents that use it are repointed to the new one before the old one is deleted.
 */
export class LlmConnection extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly provider: pulumi.Output<string>;
  declare readonly model: pulumi.Output<string>;
  declare readonly baseUrl: pulumi.Output<string | undefined>;

  constructor(name: string, args: LlmConnectionArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "LlmConnection",
      name,
      {
        logicalName: name,
        name: args?.name,
        provider: args?.provider,
        model: args?.model,
        apiKey: args?.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
        baseUrl: args?.baseUrl,
        adoptId: args?.adoptId,
        apiKeyDigest: undefined,
        secretSalt: undefined,
        createdFrom: undefined,
      },
      opts,
    );
  }

  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): LlmConnection {
    return new LlmConnection(name, undefined as unknown as LlmConnectionArgs, { ...opts, id });
  }
}

export interface AgentArgs {
  name?: pulumi.Input<string>;
  /** What the agent does. */
  instructions: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  /** The model it thinks with: an LlmConnection, or its id. */
  llmConnection: LlmConnection | pulumi.Input<string>;
  /** Endpoints it may call: HttpConnections, or their ids. */
  httpConnections?: Array<HttpConnection | pulumi.Input<string>>;
  /** Desired state: true (default) deploys it (running); false keeps it a draft or cancels it. */
  deployed?: pulumi.Input<boolean>;
  /** Take over an existing agent with this id instead of creating one (no write when it already matches). */
  adoptId?: pulumi.Input<string>;
}

const idOf = (r: pulumi.Resource | pulumi.Input<string>): pulumi.Input<string> =>
  r instanceof pulumi.CustomResource ? (r.id as pulumi.Output<string>) : (r as pulumi.Input<string>);

/** A stream-processing AI agent. Deleting it is the API's soft delete (a running agent is cancelled first). */
export class Agent extends CdcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly instructions: pulumi.Output<string>;
  declare readonly llmConnectionId: pulumi.Output<string>;
  declare readonly httpConnectionIds: pulumi.Output<string[]>;
  declare readonly deployed: pulumi.Output<boolean>;
  /** The API's status: draft, running, cancelled. */
  declare readonly status: pulumi.Output<string>;
  declare readonly flags: pulumi.Output<string[]>;

  constructor(name: string, args: AgentArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Agent",
      name,
      {
        logicalName: name,
        name: args?.name,
        instructions: args?.instructions,
        description: args?.description,
        llmConnectionId: args?.llmConnection === undefined ? undefined : idOf(args.llmConnection),
        httpConnectionIds: args?.httpConnections?.map(idOf),
        deployed: args?.deployed,
        adoptId: args?.adoptId,
        status: undefined,
        flags: undefined,
        createdFrom: undefined,
      },
      opts,
    );
  }

  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Agent {
    return new Agent(name, undefined as unknown as AgentArgs, { ...opts, id });
  }
}
