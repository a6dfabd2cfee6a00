import { z } from "zod";

/**
 * Request validation in the shape the real API (a FastAPI/pydantic service) answers with:
 * 422 `{detail: [{loc, msg, type, input, ctx}]}`. Zod checks the shapes; this module turns
 * zod issues, and the checks zod cannot express, into pydantic's error vocabulary so clients
 * can be written against the real service's error format.
 */

export type Loc = (string | number)[];

export interface ValidationDetail {
  loc: Loc;
  msg: string;
  type: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export class RequestValidationError extends Error {
  constructor(readonly details: ValidationDetail[]) {
    super(`request validation failed: ${details.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; ")}`);
  }
}

/** Set as the body when the JSON could not be parsed; routes that read a body turn it into json_invalid. */
export class InvalidJsonBody {
  constructor(
    readonly position: number,
    readonly error: string,
  ) {}
}

/** pydantic renders choices as `'a', 'b' or 'c'`. */
export function expectedList(values: readonly (string | number | boolean | null)[]): string {
  const quoted = values.map((v) => (typeof v === "string" ? `'${v}'` : String(v)));
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Builders for the pydantic error types this API produces, for checks written by hand. */
export const err = {
  missing: (loc: Loc, parent: unknown): ValidationDetail => ({ loc, msg: "Field required", type: "missing", input: parent ?? null }),
  stringType: (loc: Loc, input: unknown): ValidationDetail => ({ loc, msg: "Input should be a valid string", type: "string_type", input }),
  dictType: (loc: Loc, input: unknown): ValidationDetail => ({ loc, msg: "Input should be a valid dictionary", type: "dict_type", input }),
  listType: (loc: Loc, input: unknown): ValidationDetail => ({ loc, msg: "Input should be a valid list", type: "list_type", input }),
  modelType: (loc: Loc, input: unknown): ValidationDetail => ({
    loc,
    msg: "Input should be a valid dictionary or object to extract fields from",
    type: "model_attributes_type",
    input,
  }),
  enumError: (loc: Loc, input: unknown, values: readonly string[]): ValidationDetail => {
    const expected = expectedList(values);
    return { loc, msg: `Input should be ${expected}`, type: "enum", input, ctx: { expected } };
  },
  intType: (loc: Loc, input: unknown): ValidationDetail => ({ loc, msg: "Input should be a valid integer", type: "int_type", input }),
  intParsing: (loc: Loc, input: unknown): ValidationDetail => ({
    loc,
    msg: "Input should be a valid integer, unable to parse string as an integer",
    type: "int_parsing",
    input,
  }),
  intFromFloat: (loc: Loc, input: unknown): ValidationDetail => ({
    loc,
    msg: "Input should be a valid integer, got a number with a fractional part",
    type: "int_from_float",
    input,
  }),
  boolType: (loc: Loc, input: unknown): ValidationDetail => ({ loc, msg: "Input should be a valid boolean", type: "bool_type", input }),
  boolParsing: (loc: Loc, input: unknown): ValidationDetail => ({
    loc,
    msg: "Input should be a valid boolean, unable to interpret input",
    type: "bool_parsing",
    input,
  }),
  greaterThanEqual: (loc: Loc, input: unknown, ge: number): ValidationDetail => ({
    loc,
    msg: `Input should be greater than or equal to ${ge}`,
    type: "greater_than_equal",
    input,
    ctx: { ge },
  }),
  lessThanEqual: (loc: Loc, input: unknown, le: number): ValidationDetail => ({
    loc,
    msg: `Input should be less than or equal to ${le}`,
    type: "less_than_equal",
    input,
    ctx: { le },
  }),
  stringTooShort: (loc: Loc, input: unknown, min: number): ValidationDetail => ({
    loc,
    msg: `String should have at least ${plural(min, "character")}`,
    type: "string_too_short",
    input,
    ctx: { min_length: min },
  }),
  stringTooLong: (loc: Loc, input: unknown, max: number): ValidationDetail => ({
    loc,
    msg: `String should have at most ${plural(max, "character")}`,
    type: "string_too_long",
    input,
    ctx: { max_length: max },
  }),
  patternMismatch: (loc: Loc, input: unknown, pattern: string): ValidationDetail => ({
    loc,
    msg: `String should match pattern '${pattern}'`,
    type: "string_pattern_mismatch",
    input,
    ctx: { pattern },
  }),
  valueError: (loc: Loc, input: unknown, message: string): ValidationDetail => ({
    loc,
    msg: `Value error, ${message}`,
    type: "value_error",
    input,
    ctx: { error: message },
  }),
  jsonInvalid: (position: number, error: string): ValidationDetail => ({
    loc: ["body", position],
    msg: "JSON decode error",
    type: "json_invalid",
    input: {},
    ctx: { error },
  }),
};

/** A zod custom issue that already carries its pydantic form. */
export function addPydanticIssue(ctx: z.RefinementCtx, detail: Omit<ValidationDetail, "loc">): void {
  ctx.addIssue({ code: "custom", message: detail.msg, input: detail.input, params: { pydantic: detail } });
}

function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, key as string)) {
      return { found: false, value: undefined };
    }
    current = (current as Record<PropertyKey, unknown>)[key as string];
  }
  return { found: true, value: current };
}

function toLocPart(key: PropertyKey): string | number {
  return typeof key === "number" ? key : String(key);
}

function fromZodIssue(issue: z.core.$ZodIssue, root: unknown, prefix: Loc): ValidationDetail {
  const path = issue.path;
  const loc: Loc = [...prefix, ...path.map(toLocPart)];
  const here = valueAt(root, path);
  const input = here.found ? here.value : issue.input;
  switch (issue.code) {
    case "custom": {
      const pyd = (issue.params as { pydantic?: Omit<ValidationDetail, "loc"> } | undefined)?.pydantic;
      if (pyd) return { loc, ...pyd };
      return err.valueError(loc, input, issue.message);
    }
    case "invalid_type": {
      if (!here.found || (here.value === undefined && issue.expected !== "undefined")) {
        const parent = valueAt(root, path.slice(0, -1));
        return err.missing(loc, path.length === 0 ? null : parent.value);
      }
      switch (issue.expected) {
        case "string":
          return err.stringType(loc, input);
        case "int":
          return err.intType(loc, input);
        case "number":
          return { loc, msg: "Input should be a valid number", type: "float_type", input };
        case "boolean":
          return err.boolType(loc, input);
        case "array":
        case "tuple":
          return err.listType(loc, input);
        case "object":
          return path.length === 0 ? err.modelType(loc, input) : err.dictType(loc, input);
        case "record":
          return err.dictType(loc, input);
        default:
          return { loc, msg: issue.message, type: "type_error", input };
      }
    }
    case "invalid_value":
      // A required enum that is absent is missing, as pydantic says, not a wrong value.
      if (!here.found) return err.missing(loc, path.length === 0 ? null : valueAt(root, path.slice(0, -1)).value);
      return err.enumError(
        loc,
        input,
        issue.values.map((v) => String(v)),
      );
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return err.stringTooShort(loc, input, min);
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : 0;
        return {
          loc,
          msg: `List should have at least ${plural(min, "item")} after validation, not ${actual}`,
          type: "too_short",
          input,
          ctx: { field_type: "List", min_length: min, actual_length: actual },
        };
      }
      if (issue.inclusive === false) {
        return { loc, msg: `Input should be greater than ${min}`, type: "greater_than", input, ctx: { gt: min } };
      }
      return err.greaterThanEqual(loc, input, min);
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return err.stringTooLong(loc, input, max);
      if (issue.origin === "array" || issue.origin === "set") {
        const actual = Array.isArray(input) ? input.length : 0;
        return {
          loc,
          msg: `List should have at most ${plural(max, "item")} after validation, not ${actual}`,
          type: "too_long",
          input,
          ctx: { field_type: "List", max_length: max, actual_length: actual },
        };
      }
      if (issue.inclusive === false) {
        return { loc, msg: `Input should be less than ${max}`, type: "less_than", input, ctx: { lt: max } };
      }
      return err.lessThanEqual(loc, input, max);
    }
    case "invalid_format": {
      if (issue.format === "uuid" || issue.format === "guid") {
        return {
          loc,
          msg: "Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-]",
          type: "uuid_parsing",
          input,
        };
      }
      if (issue.format === "url") {
        return { loc, msg: "Input should be a valid URL, relative URL without a base", type: "url_parsing", input };
      }
      const pattern = (issue.pattern ?? "").replace(/^\/(.*)\/[a-z]*$/, "$1");
      return err.patternMismatch(loc, input, pattern);
    }
    case "invalid_union": {
      const first = issue.errors[0]?.[0];
      if (first) return fromZodIssue({ ...first, path: [...path, ...first.path] } as z.core.$ZodIssue, root, prefix);
      return { loc, msg: issue.message, type: "union_tag_invalid", input };
    }
    case "unrecognized_keys":
      return { loc, msg: "Extra inputs are not permitted", type: "extra_forbidden", input };
    default:
      return { loc, msg: issue.message, type: "value_error", input };
  }
}

export type Source = "body" | "query" | "path";

export type Parsed<T> = { ok: true; value: T } | { ok: false; details: ValidationDetail[] };

/**
 * Validates one part of the request. Missing bodies and undecodable JSON are reported the way
 * FastAPI reports them (`["body"]` missing, `["body", pos]` json_invalid).
 */
export function check<T>(schema: z.ZodType<T>, data: unknown, source: Source): Parsed<T> {
  if (source === "body") {
    if (data instanceof InvalidJsonBody) return { ok: false, details: [err.jsonInvalid(data.position, data.error)] };
    // FastAPI treats an empty body and a JSON `null` body alike: the body is missing.
    if (data === undefined || data === null) return { ok: false, details: [err.missing(["body"], null)] };
  }
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, details: result.error.issues.map((issue) => fromZodIssue(issue, data, [source])) };
}

/**
 * Validates path, query and body together and reports every problem in one 422, as FastAPI
 * collects errors from all parameter sources before answering.
 */
export function validateRequest<P = undefined, Q = undefined, B = undefined>(
  request: { params: unknown; query: unknown; body: unknown },
  schemas: { path?: z.ZodType<P>; query?: z.ZodType<Q>; body?: z.ZodType<B> },
  extra?: (parsed: { path: P; query: Q; body: B }) => ValidationDetail[],
): { path: P; query: Q; body: B } {
  const details: ValidationDetail[] = [];
  const out = { path: undefined, query: undefined, body: undefined } as { path: P; query: Q; body: B };
  if (schemas.path) {
    const r = check(schemas.path, request.params, "path");
    if (r.ok) out.path = r.value;
    else details.push(...r.details);
  }
  if (schemas.query) {
    const r = check(schemas.query, normaliseQuery(request.query), "query");
    if (r.ok) out.query = r.value;
    else details.push(...r.details);
  }
  if (schemas.body) {
    const r = check(schemas.body, request.body, "body");
    if (r.ok) out.body = r.value;
    else details.push(...r.details);
  }
  if (details.length === 0 && extra) details.push(...extra(out));
  if (details.length > 0) throw new RequestValidationError(details);
  return out;
}

/** FastAPI reads the last occurrence of a repeated scalar query parameter. */
function normaliseQuery(query: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (query && typeof query === "object") {
    for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
      if (Array.isArray(value)) out[key] = value.map(String);
      else if (value !== undefined) out[key] = String(value);
    }
  }
  return out;
}

const lastOf = (v: string | string[]) => (Array.isArray(v) ? v[v.length - 1] : v);

/** Integer query parameter with pydantic's parsing and bound errors. */
export function queryInt(opts: { default: number; ge?: number; le?: number }) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((raw, ctx): number => {
      if (raw === undefined) return opts.default;
      const text = lastOf(raw).trim();
      if (!/^[+-]?\d+$/.test(text)) {
        addPydanticIssue(ctx, withoutLoc(err.intParsing([], lastOf(raw))));
        return z.NEVER;
      }
      const n = Number(text);
      if (opts.ge !== undefined && n < opts.ge) {
        addPydanticIssue(ctx, withoutLoc(err.greaterThanEqual([], lastOf(raw), opts.ge)));
        return z.NEVER;
      }
      if (opts.le !== undefined && n > opts.le) {
        addPydanticIssue(ctx, withoutLoc(err.lessThanEqual([], lastOf(raw), opts.le)));
        return z.NEVER;
      }
      return n;
    });
}

const TRUE_WORDS = new Set(["1", "true", "t", "yes", "y", "on"]);
const FALSE_WORDS = new Set(["0", "false", "f", "no", "n", "off"]);

/** Parses a boolean the way pydantic's lax mode does (`true`, `1`, `yes`, `on`, ...). */
export function parseLaxBool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return undefined;
}

export function queryBool(defaultValue: boolean) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((raw, ctx): boolean => {
      if (raw === undefined) return defaultValue;
      const parsed = parseLaxBool(lastOf(raw));
      if (parsed === undefined) {
        addPydanticIssue(ctx, withoutLoc(err.boolParsing([], lastOf(raw))));
        return z.NEVER;
      }
      return parsed;
    });
}

/** Optional single string query parameter (last occurrence wins). */
export function queryString() {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((raw) => (raw === undefined ? undefined : lastOf(raw)));
}

/** Boolean body field in pydantic's lax mode. */
export function laxBool() {
  return z.unknown().transform((raw, ctx): boolean => {
    const parsed = parseLaxBool(raw);
    if (parsed !== undefined) return parsed;
    addPydanticIssue(ctx, withoutLoc(typeof raw === "string" ? err.boolParsing([], raw) : err.boolType([], raw)));
    return z.NEVER;
  });
}

/** A built detail without its loc, for raising it from inside a zod schema (zod adds the path). */
export function withoutLoc(detail: ValidationDetail): Omit<ValidationDetail, "loc"> {
  const { loc: _loc, ...rest } = detail;
  void _loc;
  return rest;
}

/** Path parameters are plain strings in the API; the bound keeps ids to a sane length. */
export const pathId = z.string().min(1).max(128);

export const CREATED_FROM = ["web", "api", "terraform"] as const;
export type CreatedFrom = (typeof CREATED_FROM)[number];

/** `created_from`: absent means api, null is kept as null, anything else must be in the enum. */
export const createdFromField = z.enum(CREATED_FROM).nullable().optional();

export function resolveCreatedFrom(value: CreatedFrom | null | undefined): CreatedFrom | null {
  return value === undefined ? "api" : value;
}

/** A required name: a non-empty string of at most 255 characters. */
export const nameField = z.string().min(1).max(255);
