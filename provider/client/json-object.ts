import { z } from "zod";

/**
 * A JSON object with any keys and values: a connector's config, say. Checked to be an object and
 * passed on as it is. JSON has string keys only, so `z.record(z.string(), z.unknown())` checked
 * nothing more, and it walked and copied every key: half the time of parsing a page of listed
 * connectors, in every preview, refresh and drift check of a large stack.
 */
export const jsonObject = z.custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null && !Array.isArray(v), {
  message: "expected a JSON object",
});
