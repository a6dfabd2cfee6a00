import { describe, expect, it } from "vitest";
import { provider } from "../../../provider/index.js";
import { prototypeKeyFailures } from "../../../provider/prototype-keys.js";

type Bag = Record<string, unknown>;
const check = (kind: "HttpConnection" | "Source", news: Bag) =>
  (provider(kind) as unknown as { check(olds: Bag, news: Bag): Promise<{ failures: Array<{ property: string; reason: string }> }> }).check({}, { logicalName: "r", ...news });

// JSON.parse makes a key `__proto__` of its own, as a program's JSON or YAML and the engine's wire do.
const parsed = (text: string) => JSON.parse(text) as Bag;

describe("a key named __proto__ in the inputs", () => {
  it("is refused by its path, however deep, in maps, lists and objects", () => {
    const news = parsed('{"headers": {"__proto__": "x"}, "config": {"a": [{"b": {"__proto__": {}}}]}, "source": {"__proto__": {"id": "s"}}}');
    expect(prototypeKeyFailures(news).map((f) => f.property)).toEqual(["headers.__proto__", "config.a[0].b.__proto__", "source.__proto__"]);
  });

  it("at the top is no input of any kind, and goes as any other unknown key does", () => {
    expect(prototypeKeyFailures(parsed('{"__proto__": {"name": "x"}}'))).toEqual([]);
  });

  it("fails a kind's check, which would otherwise drop it without a word (a header of that name)", async () => {
    const { failures } = await check("HttpConnection", { url: "https://tickets.example.com", headers: parsed('{"__proto__": "Bearer t", "X-Key": "k"}') });
    expect(failures).toEqual([{ property: "headers.__proto__", reason: "is a key named __proto__, which neither pulumi-cdc nor the API can hold: rename or remove it" }]);
    expect((await check("HttpConnection", { url: "https://tickets.example.com", headers: { "X-Key": "k" } })).failures).toEqual([]);
  });
});
