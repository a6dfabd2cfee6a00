import { KAFKA_PATTERN_TYPES, KAFKA_RESOURCES } from "../../catalogue/kind-values.js";
import { failuresFromZod, type CheckFailure } from "../check.js";
import { anyJsonSchema, ConflictError, isNotFound, type CdcClient } from "../client/index.js";
import { client } from "../context.js";
import { KAFKA_USER, WHITELIST_MAX } from "../kinds/kafkaUser.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { recoverByName } from "./recovered.js";
import { reportDrift } from "../drift.js";
import type { ImportListing } from "../kinds/imported.js";
import { aclOf, findKafkaUser, listKafkaUsers, KAFKA_USER_PATH, KAFKA_USERS_PATH, kafkaUserSchema, whitelistOf, type KafkaAcl, type LiveKafkaUser } from "../kafka/api.js";

export { aclOf, whitelistOf, type KafkaAcl };
import { notOurs } from "../lookup.js";
import { containsUnknown, isUnknown, MASK, sameMembers } from "../normalize.js";
import { newSalt, sameSecret, secretDigest } from "../secret-digest.js";
import { stackForHint } from "./conflict.js";
import { createSurvivingFaults } from "./create.js";
import { unlessGone } from "./gone.js";

/** The values, by meaning: a rule names a topic exactly or by prefix, and is on a topic (the default) or a consumer group. */
const [, PATTERN_PREFIX] = KAFKA_PATTERN_TYPES;
const [ON_TOPIC] = KAFKA_RESOURCES;



export interface KafkaUserInputs {
  logicalName?: string;
  username: string;
  /** A Pulumi secret; write-only at the API, which never returns it. */
  password: string;
  whitelistIps: string[];
  isCreateSchemaRegistry: boolean;
  /** A set: order and duplicates carry no meaning. */
  kafkaAcls: KafkaAcl[];
  /** The username of an existing user to take over instead of creating one (the username itself). */
  adoptId?: string;
}

/** Outputs carry no password (see secret-digest.ts), only its digest. */
export interface KafkaUserOutputs extends Omit<KafkaUserInputs, "password"> {
  kafkaProxyEndpoint: string;
  /** Empty without a schema-registry user. */
  schemaProxyEndpoint: string;
  /** Keyed digest of the password Pulumi last sent; "" when Pulumi never saw it (an import). */
  passwordDigest: string;
  secretSalt: string;
  createdFrom: string;
}





const aclKey = (a: KafkaAcl) => `${a.resource}|${a.resourcePatternType}|${a.topicName}|${a.operation}`;

/** ACLs as a set: the same rules in any order, duplicates or not, are the same set. */
export function sameAcls(a: readonly KafkaAcl[] | undefined, b: readonly KafkaAcl[] | undefined): boolean {
  return sameMembers((a ?? []).map(aclKey), (b ?? []).map(aclKey));
}

function uniqueAcls(acls: readonly KafkaAcl[]): KafkaAcl[] {
  const out = new Map<string, KafkaAcl>();
  for (const acl of acls) out.set(aclKey(acl), acl);
  return [...out.values()];
}

function wireAcl(acl: KafkaAcl) {
  return { topic_name: acl.topicName, operation: acl.operation, resource_pattern_type: acl.resourcePatternType, resource: acl.resource };
}

const describeAcl = (a: KafkaAcl) => `${a.operation} on ${a.resource} ${a.resourcePatternType === PATTERN_PREFIX ? `${a.topicName}*` : a.topicName}`;

/** What a Kafka user's outputs (or inputs) record, as far as drift goes. */
export type RecordedKafkaUser = Partial<Pick<KafkaUserOutputs, "username" | "whitelistIps" | "isCreateSchemaRegistry" | "kafkaAcls">>;

/**
 * What changed on a Kafka user outside Pulumi, as sentences, and the property paths they touch
 * ([] when nothing). The one rule for a plain preview's diff and `pulumi-cdc drift`. A property
 * the record lacks (a reader that could not see it) is not compared.
 */
export function kafkaUserFindings(live: LiveKafkaUser | undefined, recorded: RecordedKafkaUser): { findings: string[]; paths: string[] } {
  if (!live) return { findings: ["was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again"], paths: [] };
  const findings: string[] = [];
  const paths: string[] = [];
  const liveAcls = live.kafka_acls.map(aclOf);
  const recordedAcls = recorded.kafkaAcls ?? [];
  if (recorded.kafkaAcls !== undefined && !sameAcls(liveAcls, recordedAcls)) {
    const keys = new Set(recordedAcls.map(aclKey));
    const liveKeys = new Set(liveAcls.map(aclKey));
    const added = uniqueAcls(liveAcls.filter((a) => !keys.has(aclKey(a))));
    const removed = uniqueAcls(recordedAcls.filter((a) => !liveKeys.has(aclKey(a))));
    const parts = [
      ...(added.length > 0 ? [`added ${added.map(describeAcl).join(", ")}`] : []),
      ...(removed.length > 0 ? [`removed ${removed.map(describeAcl).join(", ")}`] : []),
    ];
    findings.push(`ACLs were changed: ${parts.join("; ")}`);
    paths.push("kafkaAcls");
  }
  const liveIps = whitelistOf(live.whitelist_ips);
  if (recorded.whitelistIps !== undefined && !sameMembers([...new Set(liveIps)], [...new Set(recorded.whitelistIps)])) {
    findings.push(`whitelist IPs were changed to ${liveIps.length > 0 ? liveIps.join(", ") : "none (any address)"}`);
    paths.push("whitelistIps");
  }
  if (recorded.isCreateSchemaRegistry !== undefined && live.is_create_schema_registry !== recorded.isCreateSchemaRegistry) {
    findings.push(`its schema-registry user was ${live.is_create_schema_registry ? "added" : "removed"}`);
    paths.push("isCreateSchemaRegistry");
  }
  return { findings, paths };
}

function outputs(live: LiveKafkaUser, inputs: Omit<KafkaUserInputs, "password">, password: { salt: string; digest: string }, createdFrom?: string): KafkaUserOutputs {
  const { password: _dropped, ...rest } = inputs as KafkaUserInputs;
  return {
    ...rest,
    kafkaProxyEndpoint: live.kafka_proxy_endpoint,
    schemaProxyEndpoint: live.schema_proxy_endpoint,
    passwordDigest: password.digest,
    secretSalt: password.salt,
    createdFrom: live.created_from ?? createdFrom ?? "",
  };
}

function body(inputs: KafkaUserInputs) {
  return {
    // Sent also when empty: a server that read an absent whitelist as "keep" would otherwise never clear one.
    whitelist_ips: inputs.whitelistIps.join(","),
    kafka_acls: inputs.kafkaAcls.map(wireAcl),
    is_create_schema_registry: inputs.isCreateSchemaRegistry,
  };
}

/** The live inputs in the stack's order where they hold the same set, so a refresh moves nothing that did not move. */
function aligned<T>(recorded: readonly T[] | undefined, live: readonly T[], same: (a: readonly T[], b: readonly T[]) => boolean): T[] {
  return recorded !== undefined && same(recorded, live) ? [...recorded] : [...live];
}

/**
 * Kafka users: a broker user with ACLs. The username is the id and cannot change (a change
 * replaces the user); the password is write-only at the API, so the stack keeps a keyed digest
 * of it and an update sends it only when the program changed it.
 */
export class KafkaUserProvider {
  /** `pulumi-cdc recover`: the user a killed run's create made, by its username (unique, and its id). */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    // A Kafka user's unique name is its username, which is also its id; the API lists them all.
    const list = async (partial: string) => (await listKafkaUsers(api)).filter((u) => u.username.includes(partial)).map((u) => ({ ...u, id: u.username, name: u.username }));
    return recoverByName(api, context, { kind: KAFKA_USER, name: inputs.username, list });
  }

  /** `pulumi-cdc import`: every Kafka user of the tenant. */
  listForImport(api: CdcClient, _listing: ImportListing): Promise<LiveKafkaUser[]> {
    return listKafkaUsers(api);
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    // One listing for every Kafka user of the stack: the API has no read of one.
    const username = typeof recorded.username === "string" ? recorded.username : id;
    const live = await findKafkaUser(api, username);
    return { gone: live === undefined, findings: kafkaUserFindings(live, recorded).findings };
  }

  readonly replaceOnChange = KAFKA_USER.replaceOnChange;

  async check(_olds: Partial<KafkaUserInputs>, news: Record<string, unknown>) {
    const parsed = KAFKA_USER.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const failures: CheckFailure[] = [];
    const whitelistIps = [...new Set(input.whitelistIps ?? [])];
    const joined = whitelistIps.join(",");
    if (!containsUnknown(whitelistIps) && joined.length > WHITELIST_MAX) {
      failures.push({ property: "whitelistIps", reason: `holds ${joined.length} characters once comma-separated; the API takes at most ${WHITELIST_MAX}: use wider CIDR ranges` });
    }
    // A user's id is its username: adopting one under another name would rename nothing (the API cannot).
    if (input.adoptId !== undefined && !isUnknown(input.adoptId) && !isUnknown(input.username) && input.adoptId !== input.username) {
      failures.push({ property: "adoptId", reason: `must equal username ("${input.username}"): a Kafka user's id is its username, which cannot change. Set adoptId to "${input.username}", or username to "${input.adoptId}"` });
    }
    const inputs: KafkaUserInputs = {
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      username: input.username,
      password: input.password,
      whitelistIps,
      isCreateSchemaRegistry: input.isCreateSchemaRegistry ?? false,
      kafkaAcls: uniqueAcls((input.kafkaAcls ?? []).map((a) => ({ ...a, resource: a.resource ?? ON_TOPIC }))),
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    };
    return { inputs, failures };
  }

  async diff(id: string, olds: KafkaUserOutputs, news: KafkaUserInputs) {
    const replaces: string[] = this.replaceOnChange.filter((k) => olds[k] !== news[k]);
    const paths = new Set<string>();
    // An empty digest: a user `pulumi import` took in, whose password Pulumi never saw. The
    // program's is taken as the one the API holds until Pulumi next writes the user.
    if (olds.passwordDigest !== "" && !isUnknown(news.password) && !sameSecret(olds.secretSalt, olds.passwordDigest, news.password)) paths.add("password");
    if (!sameMembers(olds.whitelistIps, news.whitelistIps)) paths.add("whitelistIps");
    if ((olds.isCreateSchemaRegistry ?? false) !== news.isCreateSchemaRegistry) paths.add("isCreateSchemaRegistry");
    if (!sameAcls(olds.kafkaAcls, news.kafkaAcls)) paths.add("kafkaAcls");
    let drifted = false;
    if (replaces.length === 0 && !containsUnknown(news)) {
      // A plain `pulumi preview` shows ACLs or IPs edited outside Pulumi: diff asks the API.
      const live = await findKafkaUser(client(), olds.username ?? id);
      const { findings, paths: drift } = kafkaUserFindings(live, olds);
      for (const p of drift) paths.add(p);
      drifted = findings.length > 0;
      reportDrift(`Kafka user "${olds.username ?? id}"`, findings);
    }
    return {
      changes: replaces.length > 0 || paths.size > 0 || drifted,
      replaces,
      ...(paths.size > 0 || replaces.length > 0 ? { diffs: [...new Set([...paths, ...replaces])].sort() } : {}),
      // The API refuses a username that differs from a taken one only in case: then the old one goes first.
      deleteBeforeReplace: replaces.length > 0 && String(olds.username).toLowerCase() === String(news.username).toLowerCase(),
    };
  }

  async create(inputs: KafkaUserInputs) {
    const api = client();
    if (inputs.adoptId) return this.adopt(api, inputs);
    const live = await createSurvivingFaults<LiveKafkaUser>({
      what: `Kafka user "${inputs.username}"`,
      send: () =>
        api.post(KAFKA_USERS_PATH, {
          body: { username: inputs.username, password: inputs.password, ...body(inputs), created_from: api.createdFrom },
          schema: kafkaUserSchema,
        }),
      // Usernames are unique: after a lost answer, the user of this name is the create's result if Pulumi made it as sent.
      find: () => findKafkaUser(api, inputs.username, { fresh: true }),
      mismatch: (found) => notOurs(found, {}, api.createdFrom) ?? (sameAcls(found.kafka_acls.map(aclOf), inputs.kafkaAcls) ? undefined : "it has other ACLs"),
      policy: api.retryPolicy,
    }).catch(async (err: unknown) => {
      if (err instanceof ConflictError) throw new Error(`${err.message}. ${await takenHint(api, inputs.username)}`);
      throw err;
    });
    const salt = newSalt();
    return { id: live.username, outs: outputs(live, inputs, { salt, digest: secretDigest(salt, inputs.password) }, api.createdFrom) };
  }

  /**
   * Takes over an existing user. When its whitelist, ACLs and schema-registry user already equal
   * the program's, nothing is written, and the program's password is taken to be the user's (the
   * API never shows one: a Terraform state holds the one Terraform last set). Otherwise one
   * update makes it match, and sends the program's password with it.
   */
  private async adopt(api: CdcClient, inputs: KafkaUserInputs) {
    const live = await findKafkaUser(api, inputs.adoptId!);
    if (!live) throw new Error(`adoptId: there is no Kafka user "${inputs.adoptId}" to adopt; check the username, or remove adoptId to create a new user`);
    const salt = newSalt();
    const { findings } = kafkaUserFindings(live, inputs);
    if (findings.length === 0) return { id: live.username, outs: outputs(live, inputs, { salt, digest: secretDigest(salt, inputs.password) }) };
    // An empty digest: the update sends the program's password, as for a user Pulumi never saw.
    const olds = { ...outputs(live, inputs, { salt, digest: "" }), username: live.username };
    return { id: live.username, outs: (await this.update(live.username, olds, inputs)).outs };
  }

  async read(id: string, props: Partial<KafkaUserOutputs>) {
    const live = await findKafkaUser(client(), props.username ?? id);
    if (!live) return { id: "", props: {} };
    // No recorded username: `pulumi import` on the plugin (the id is the username).
    const importing = props.username === undefined;
    const liveAcls = live.kafka_acls.map(aclOf);
    const liveIps = whitelistOf(live.whitelist_ips);
    const realigned: Omit<KafkaUserInputs, "password"> = {
      ...(props.logicalName !== undefined ? { logicalName: props.logicalName } : {}),
      username: live.username,
      whitelistIps: aligned(props.whitelistIps, liveIps, sameMembers),
      isCreateSchemaRegistry: live.is_create_schema_registry,
      kafkaAcls: aligned(props.kafkaAcls, uniqueAcls(liveAcls), sameAcls),
    };
    const password = { salt: props.secretSalt ?? newSalt(), digest: importing ? "" : (props.passwordDigest ?? "") };
    const outs = outputs(live, realigned, password);
    // The API never shows the password: the inputs carry the placeholder, which an import writes
    // where the program sets its password (check() refuses the placeholder itself).
    if (importing) {
      const { whitelistIps, isCreateSchemaRegistry, kafkaAcls, ...rest } = realigned;
      const inputs = {
        ...rest,
        password: MASK,
        ...(whitelistIps.length > 0 ? { whitelistIps } : {}),
        ...(isCreateSchemaRegistry ? { isCreateSchemaRegistry } : {}),
        ...(kafkaAcls.length > 0 ? { kafkaAcls } : {}),
      };
      return { id: live.username, props: outs, inputs };
    }
    // Inputs only when the user moved away from them: otherwise the engine keeps the stack's own,
    // with the program's password.
    const moved = kafkaUserFindings(live, props as RecordedKafkaUser).findings.length > 0;
    return moved ? { id: live.username, props: outs, inputs: { ...realigned, password: MASK } } : { id: live.username, props: outs };
  }

  async update(id: string, olds: KafkaUserOutputs, news: KafkaUserInputs) {
    const api = client();
    // Sent only when the program changed it, or when Pulumi never saw the one the API holds (an import).
    const sendPassword = olds.passwordDigest === "" || !sameSecret(olds.secretSalt, olds.passwordDigest, news.password);
    try {
      const live = await api.put(KAFKA_USER_PATH, {
        params: { username: olds.username ?? id },
        body: { ...(sendPassword ? { password: news.password } : {}), ...body(news) },
        schema: kafkaUserSchema,
      });
      const salt = olds.secretSalt || newSalt();
      return { outs: outputs(live, news, { salt, digest: secretDigest(salt, news.password) }, olds.createdFrom) };
    } catch (err) {
      if (isNotFound(err)) {
        throw new Error(`Kafka user "${news.username}" no longer exists: it was deleted outside Pulumi. Run \`pulumi refresh\`, then \`pulumi up\` to create it again.`);
      }
      throw err;
    }
  }

  async delete(id: string, props?: Partial<KafkaUserOutputs>) {
    await unlessGone(() => client().delete(KAFKA_USER_PATH, { params: { username: props?.username ?? id }, schema: anyJsonSchema }));
  }
}

/** After a 409: whose the user of that name is, and what to do. */
async function takenHint(api: CdcClient, username: string): Promise<string> {
  const existing = await findKafkaUser(api, username, { fresh: true }).catch(() => undefined);
  const base = "Kafka usernames are unique (regardless of case): choose another username";
  if (existing && existing.created_from === api.createdFrom) {
    return (
      `${base}. The existing user was created by an IaC tool (created_from "${existing.created_from}"): if a \`pulumi up\` was interrupted, ` +
      `it may have created it without recording it; run \`npx pulumi-cdc recover --stack ${stackForHint()}\` to take it into the stack.`
    );
  }
  return `${base}, or remove the existing one first.`;
}
