import { describe, expect, it } from "vitest";
import { findSmtType, materializedConfig, SMT_TYPE_IDS, smtConfigIssues } from "../../../catalogue/smt.js";
import { MASK } from "../../../provider/normalize.js";
import { newSalt, secretDigest } from "../../../provider/secret-digest.js";
import { buildWrites, checkEntries, compareEntries, digestsOf, entryAsProgram, type Prior, type SmtEntry } from "../../../provider/smt/entries.js";
import { programPath } from "../../../provider/smt/errors.js";
import { smtSecretPaths } from "../../../provider/kinds/smt-secrets.js";
import type { SmtTransformArgs } from "../../../sdk/destinationSmtChain.js";

const mask = (more: Record<string, unknown> = {}) => ({ type: "mask_field", name: "Mask email", fieldsInclude: ["orders.email"], ...more });
const route = (more: Record<string, unknown> = {}) => ({ type: "regex_router", name: "Route orders", regex: "(.*)_orders", replacement: "$1", ...more });

describe("the SMT catalogue", () => {
  it("holds the three published types with their fields, defaults and the one secret", () => {
    expect(SMT_TYPE_IDS).toEqual(["regex_router", "mask_field", "drop_fields"]);
    const maskField = findSmtType("mask_field")!;
    expect(maskField.fields.map((f) => f.name)).toEqual(["fieldsInclude", "fieldsExclude", "maskFunction", "maskSalt", "maskChar", "maskFixedValue", "replaceNullWithDefault"]);
    expect(maskField.fields.filter((f) => f.secret).map((f) => f.key)).toEqual(["mask_salt"]);
    expect(maskField.fields.find((f) => f.name === "maskFunction")!.enum).toHaveLength(7);
    expect(findSmtType("regex_router")!.fields.find((f) => f.key === "replacement")!.default).toBe("$0");
  });

  it("judges a wire config as the platform does: missing, extra, secret in config, enum, item pattern", () => {
    const issues = smtConfigIssues(findSmtType("mask_field")!, { fields_exclude: ["a,b"], mask_function: "ROT13", mask_salt: "s", colour: "red" });
    expect(issues.map((i) => [i.key, i.index, i.code])).toEqual([
      ["fields_include", undefined, "smt_config_missing"],
      ["fields_exclude", 0, "smt_config_string_pattern_mismatch"],
      ["mask_function", undefined, "smt_config_enum"],
      ["mask_salt", undefined, "smt_config_secret_in_config"],
      ["colour", undefined, "smt_config_extra_forbidden"],
    ]);
    expect(materializedConfig(findSmtType("drop_fields")!, { fields_include: ["x"] })).toEqual({ fields_include: ["x"], fields_exclude: [], replace_null_with_default: true });
  });
});

describe("chain entries: check", () => {
  it("fills in every default of the catalogue and keeps the salt", () => {
    const { entries, failures } = checkEntries([route({ replacement: undefined }), mask({ maskSalt: "pepper-123" })]);
    expect(failures).toEqual([]);
    expect(entries[0]).toEqual({ type: "regex_router", name: "Route orders", enabled: true, regex: "(.*)_orders", replacement: "$0" });
    expect(entries[1]).toEqual({
      type: "mask_field",
      name: "Mask email",
      enabled: true,
      fieldsInclude: ["orders.email"],
      fieldsExclude: [],
      maskFunction: "SHA256_TRUNCATE",
      maskSalt: "pepper-123",
      maskChar: "*",
      maskFixedValue: "***",
      replaceNullWithDefault: true,
    });
  });

  it("names each bad entry's field and says the fix", () => {
    const { failures } = checkEntries([
      route({ maskChar: "#" }),
      mask({ maskFunction: "sha256", fieldsInclude: ["a,b"] }),
      { type: "drop_fields", name: "Drop" },
      { type: "rename", name: "x" },
      mask({ name: "Route orders", enabled: "yes" }),
    ]);
    const byPath = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byPath).sort()).toEqual(
      ["transforms[0].maskChar", "transforms[1].fieldsInclude", "transforms[1].maskFunction", "transforms[2].fieldsInclude", "transforms[3].type", "transforms[4].enabled", "transforms[4].name"].sort(),
    );
    expect(byPath["transforms[0].maskChar"]).toBe("is not a field of regex_router (it takes regex, replacement); mask_field takes it: remove it");
    expect(byPath["transforms[1].maskFunction"]).toMatch(/must be one of SHA256_TRUNCATE, .*NULLIFY; got "sha256": did you mean SHA256\?/);
    expect(byPath["transforms[1].fieldsInclude"]).toMatch(/must not hold a comma/);
    expect(byPath["transforms[2].fieldsInclude"]).toMatch(/is required by drop_fields/);
    expect(byPath["transforms[3].type"]).toBe('must be one of regex_router, mask_field, drop_fields (the SMT catalogue); got "rename"');
    expect(byPath["transforms[4].name"]).toMatch(/also the name of transforms\[0\]/);
    expect(checkEntries(undefined).failures[0]!.property).toBe("transforms");
  });
});

describe("chain entries: secret operations", () => {
  const salt = newSalt();
  const entries = checkEntries([route(), mask({ maskSalt: "pepper-123" })]).entries;
  const held = (configured: string[]): Map<string, Prior> =>
    new Map([
      ["Route orders", { id: "instance-a", type: "regex_router", configured: [] }],
      ["Mask email", { id: "instance-b", type: "mask_field", configured }],
    ]);

  it("sends a new salt as a replace, and nothing in config", () => {
    const writes = buildWrites(entries, new Map(), { salt });
    expect(writes[0]).toEqual({ type: "regex_router", name: "Route orders", enabled: true, config: { regex: "(.*)_orders", replacement: "$1" } });
    expect(writes[1]!.secret_operations).toEqual([{ pointer: "/mask_salt", operation: "replace", value: "pepper-123" }]);
    expect(writes[1]!.config).not.toHaveProperty("mask_salt");
    expect(JSON.stringify(writes[1]!.config)).not.toContain("pepper");
  });

  it("re-sends the salt only when it changed, keeps the instance ids, and clears a dropped one", () => {
    const digests = digestsOf(entries, salt, undefined);
    expect(digests).toEqual({ "Mask email": { maskSalt: secretDigest(salt, "pepper-123") } });
    const same = buildWrites(entries, held(["/mask_salt"]), { salt, digests });
    expect(same.map((w) => w.id)).toEqual(["instance-a", "instance-b"]);
    expect(same[1]).not.toHaveProperty("secret_operations");
    const changed = buildWrites(checkEntries([route(), mask({ maskSalt: "pepper-456" })]).entries, held(["/mask_salt"]), { salt, digests });
    expect(changed[1]!.secret_operations).toEqual([{ pointer: "/mask_salt", operation: "replace", value: "pepper-456" }]);
    const dropped = buildWrites(checkEntries([route(), mask()]).entries, held(["/mask_salt"]), { salt, digests });
    expect(dropped[1]!.secret_operations).toEqual([{ pointer: "/mask_salt", operation: "clear" }]);
    // Cleared outside Pulumi: the recorded digest no longer stands for what the platform holds.
    expect(buildWrites(entries, held([]), { salt, digests })[1]!.secret_operations).toEqual([{ pointer: "/mask_salt", operation: "replace", value: "pepper-123" }]);
  });

  it("keeps the held salt for the import mask, and refuses the mask where nothing is held", () => {
    const imported = checkEntries([route(), mask({ maskSalt: MASK })]).entries;
    expect(buildWrites(imported, held(["/mask_salt"]), { salt })[1]).not.toHaveProperty("secret_operations");
    expect(() => buildWrites(imported, held([]), { salt })).toThrow(/transforms\[1\]\.maskSalt: "\*\*\*\*\*\*\*\*" is the placeholder .* has none to keep/);
  });

  it("gives a renamed or retyped entry no id: it is a new instance", () => {
    const writes = buildWrites(checkEntries([route({ name: "Route all" }), mask()]).entries, held([]), { salt });
    expect(writes[0]).not.toHaveProperty("id");
    expect(writes[1]!.id).toBe("instance-b");
  });
});

describe("chain entries: comparison, import form and paths", () => {
  it("names the entry and field that differ", () => {
    const a = checkEntries([route(), mask()]).entries;
    const b = a.map((e, i) => (i === 1 ? { ...e, maskFunction: "MD5" } : e)) as SmtEntry[];
    expect(compareEntries(a, b, "was")).toEqual([{ path: "transforms[1].maskFunction", text: 'transforms[1].maskFunction of "Mask email" was changed from "SHA256_TRUNCATE" to "MD5"' }]);
    expect(compareEntries(a, a.slice(0, 1)).map((f) => f.path)).toEqual(["transforms[1]"]);
  });

  it("writes an instance as a program would: defaults left out, a held salt as the mask", () => {
    const instance = {
      kind: "typed" as const,
      id: "instance-b",
      alias: "MaskField1",
      type: "mask_field",
      schema_version: 1,
      codec_version: 1,
      name: "Mask email",
      enabled: false,
      config: { fields_include: ["orders.email"], fields_exclude: [], mask_function: "SHA256_TRUNCATE", mask_char: "#", mask_fixed_value: "***", replace_null_with_default: true },
      configured_secret_paths: ["/mask_salt"],
      predicate: null,
    };
    expect(entryAsProgram(instance)).toEqual({ type: "mask_field", name: "Mask email", enabled: false, fieldsInclude: ["orders.email"], maskSalt: MASK, maskChar: "#" });
  });

  it("reads the platform's issue pointers as the program's paths", () => {
    expect(programPath("/transforms/2/config/fields_include/0")).toBe("transforms[2].fieldsInclude[0]");
    expect(programPath("/transforms/1/name")).toBe("transforms[1].name");
    expect(programPath("/expected_revision")).toBeUndefined();
  });

  it("wraps each entry's salt on the plugin, wherever it sits", () => {
    expect(smtSecretPaths({ transforms: [route(), mask({ maskSalt: "x" }), mask({ name: "n" })] })).toEqual([["transforms", 1, "maskSalt"]]);
  });

  it("types the SDK's entries from the catalogue", () => {
    const ok: SmtTransformArgs[] = [
      { type: "mask_field", name: "m", fieldsInclude: ["a"], maskFunction: "NULLIFY" },
      { type: "regex_router", name: "r", regex: "x" },
    ];
    // @ts-expect-error maskFunction takes only the catalogue's seven values
    const badEnum: SmtTransformArgs = { type: "mask_field", name: "m", fieldsInclude: ["a"], maskFunction: "ROT13" };
    // @ts-expect-error regex_router has no fieldsInclude
    const wrongField: SmtTransformArgs = { type: "regex_router", name: "r", regex: "x", fieldsInclude: ["a"] };
    // @ts-expect-error drop_fields requires fieldsInclude
    const missing: SmtTransformArgs = { type: "drop_fields", name: "d" };
    expect([ok, badEnum, wrongField, missing]).toHaveLength(4);
  });
});
