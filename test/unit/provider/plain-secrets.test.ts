import { describe, expect, it } from "vitest";
import { carryingPlainSecrets, PLAIN_SECRETS, plainSecretPaths } from "../../../provider/plain-secrets.js";
import { UNKNOWN } from "../../../provider/normalize.js";

describe("the hosts' record of secret settings given in plain (provider/plain-secrets.ts)", () => {
  const value = { config: { "database.password": "pw", "ssh.key": "k", "database.user": "u", pending: UNKNOWN }, apiKey: "x" };
  const must = [["config", "database.password"], ["config", "ssh.key"], ["config", "pending"], ["apiKey"], ["config", "absent"]];

  it("names each path that must be secret and arrived plain, not the ones that arrived secret (at them or above them), unknown or absent", () => {
    expect(plainSecretPaths(value, must, [])).toEqual(['apiKey', 'config["database.password"]', 'config["ssh.key"]']);
    expect(plainSecretPaths(value, must, [["config", "ssh.key"]])).toEqual(['apiKey', 'config["database.password"]']);
    expect(plainSecretPaths(value, must, [["config"]])).toEqual(["apiKey"]);
  });

  it("is carried through check into the checked inputs (left out when empty) and kept from every other operation", async () => {
    const seen: Array<[string, Record<string, unknown>]> = [];
    const core = {
      check: async (_olds: Record<string, unknown>, news: Record<string, unknown>) => (seen.push(["check", news]), { inputs: { name: news.name }, failures: [] }),
      diff: async (_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) => seen.push(["diff", news]),
      create: async (inputs: Record<string, unknown>) => seen.push(["create", inputs]),
      update: async (_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) => seen.push(["update", news]),
      read: async (_id: string, props: Record<string, unknown>) => seen.push(["read", props]),
      delete: async (_id: string, props: Record<string, unknown>) => seen.push(["delete", props]),
    };
    const p = carryingPlainSecrets(core);
    const news = { name: "a", [PLAIN_SECRETS]: ['config["database.password"]'] };
    expect((await p.check({}, news)).inputs).toEqual(news);
    expect((await p.check({}, { name: "a", [PLAIN_SECRETS]: [] })).inputs).toEqual({ name: "a" });
    await p.diff("id", news, news);
    await p.create(news);
    await p.update("id", news, news);
    await p.read("id", news);
    await p.delete("id", news);
    expect(seen.every(([, props]) => !(PLAIN_SECRETS in props))).toBe(true);
    expect(seen.map(([op]) => op)).toEqual(["check", "check", "diff", "create", "update", "read", "delete"]);
  });
});
