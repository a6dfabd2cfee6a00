import { afterEach, describe, expect, it } from "vitest";
import { REDACTED, describeBodyKeys, redact, redactValue, registerSecret } from "../../../provider/client/index.js";
import { clearKnownSecrets, registerSecretsIn } from "../../../provider/client/redact.js";

afterEach(() => clearKnownSecrets());

describe("redact (text)", () => {
  it("masks bearer tokens and JWTs", () => {
    expect(redact("authorization: Bearer abc.def-ghi_123=")).toBe(`authorization: Bearer ${REDACTED}`);
    expect(redact("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_x here")).toBe(`token ${REDACTED} here`);
  });

  it("masks sensitive keys in JSON, escaped JSON, query strings and JAAS text", () => {
    expect(redact('{"client_id":"c1","secret":"s-123","password": "p w"}')).toBe(`{"client_id":"c1","secret":"${REDACTED}","password": "${REDACTED}"}`);
    expect(redact('{"accessToken":"a","refreshToken":"r","refresh_token":"rt","client_secret":"cs"}')).toBe(
      `{"accessToken":"${REDACTED}","refreshToken":"${REDACTED}","refresh_token":"${REDACTED}","client_secret":"${REDACTED}"}`,
    );
    expect(redact('detail: "{\\"password\\":\\"hunter2\\",\\"user\\":\\"u\\"}"')).toBe(`detail: "{\\"password\\":\\"${REDACTED}\\",\\"user\\":\\"u\\"}"`);
    expect(redact("grant=x&client_secret=abc123&secret_returned=true")).toBe(`grant=x&client_secret=${REDACTED}&secret_returned=true`);
    expect(redact('org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p4ss";')).toBe(
      `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="${REDACTED}";`,
    );
    expect(redact('{"database.password":"x","ssl.key.password":"y"}')).toBe(`{"database.password":"${REDACTED}","ssl.key.password":"${REDACTED}"}`);
  });

  it("keeps prose such as a validation message intact", () => {
    const msg = "body.config.password: Field required; body.secret: Input should be a valid string";
    expect(redact(msg)).toBe(msg);
    expect(redact("secret_returned: true")).toBe("secret_returned: true");
  });

  it("masks a key's quoted value cut off before its closing quote (a capped body), to the end", () => {
    expect(redact('... {"password": "hunter2-cut-off')).toBe(`... {"password": "${REDACTED}"`);
    expect(redact("auth failed: password='p4ss-cut")).toBe(`auth failed: password='${REDACTED}'`);
    expect(redact('{\\"secret\\":\\"abc-cut')).toBe(`{\\"secret\\":\\"${REDACTED}\\"`);
    // A key glued to a quote still counts; a keyword inside a longer word is still a key.
    expect(redact('x"password":"v"')).toBe(`x"password":"${REDACTED}"`);
    expect(redact("my_db_password=abc&b=1")).toBe(`my_db_password=${REDACTED}&b=1`);
  });

  it("takes time in proportion to the text: a megabyte of letters (an error body) is no hang", () => {
    // Before, every position of a run of key characters began a key scanned to the run's end.
    const body = "a".repeat(1024 * 1024);
    expect(redact(body)).toBe(body);
    expect(redact(`${body} password=x`)).toBe(`${body} password=${REDACTED}`);
  });

  it("masks PEM private keys, terminated or not", () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----";
    expect(redact(`key is ${pem}!`)).toBe("key is [REDACTED PRIVATE KEY]!");
    expect(redact("-----BEGIN PRIVATE KEY-----\\nMIIE truncated")).toBe("[REDACTED PRIVATE KEY]");
    expect(redact("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----")).toContain("MIIB");
  });

  it("masks registered secrets wherever they appear, longest first", () => {
    registerSecret("tok-123456");
    registerSecret("tok-123456-extended");
    registerSecret("ab"); // too short to register: would mask ordinary text
    expect(redact("got tok-123456-extended and tok-123456 for ab")).toBe(`got ${REDACTED} and ${REDACTED} for ab`);
  });

  it("is idempotent", () => {
    const once = redact('{"password":"x"} Bearer y client_secret=z');
    expect(redact(once)).toBe(once);
  });
});

describe("redactValue (structures)", () => {
  it("masks values under sensitive keys at any depth and keeps null visible", () => {
    const input = {
      name: "pg",
      config: { "database.password": "p", "database.user": "u", nested: [{ apiKey: "k", private_key: "pk", ok: 1 }] },
      accessToken: "a",
      secret: null,
      headers: { authorization: "Bearer zzz", Cookie: "c=1" },
      secret_returned: true,
    };
    expect(redactValue(input)).toEqual({
      name: "pg",
      config: { "database.password": REDACTED, "database.user": "u", nested: [{ apiKey: REDACTED, private_key: REDACTED, ok: 1 }] },
      accessToken: REDACTED,
      secret: null,
      headers: { authorization: REDACTED, Cookie: REDACTED },
      secret_returned: true,
    });
    expect(input.config["database.password"]).toBe("p");
  });

  it("survives cycles", () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(redactValue(a)).toEqual({ x: 1, self: REDACTED });
  });

  it("never learns the API's mask as a secret, so masked diffs stay readable", () => {
    registerSecretsIn({ config: { "database.password": "********" } });
    expect(redact("database.password: ********")).toBe("database.password: ********");
  });

  it("registerSecretsIn learns values under sensitive keys of outgoing bodies", () => {
    registerSecretsIn({ name: "visible-name", config: { "sasl.password": "learned-pass" } });
    expect(redact("login failed with learned-pass for visible-name")).toBe(`login failed with ${REDACTED} for visible-name`);
  });
});

describe("describeBodyKeys", () => {
  it("lists keys, never values", () => {
    const d = describeBodyKeys({ name: "n", connector: "pg", config: { password: "hunter2", port: "5432" }, role_ids: ["a"] });
    expect(d).toBe("{name, connector, config{password, port}, role_ids}");
    expect(d).not.toContain("hunter2");
  });
});
