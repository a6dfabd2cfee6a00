import { describe, expect, it } from "vitest";
import { anyJsonSchema, CdcClient, getRequestCounts, resetRequestCounts } from "../../../provider/client/index.js";

// Every call of the product names the schema its answer is checked against. A call without one
// fails `tsc` (the @ts-expect-error lines below fail it if the schema ever becomes optional
// again), and a call that gets past the types by a cast is refused before anything is sent.

const client = new CdcClient({ settings: { apiUrl: "http://127.0.0.1:9", accessToken: "token", createdFrom: "terraform" } });

describe("a call without a response schema", () => {
  it("does not compile, for every method", () => {
    const calls = [
      // @ts-expect-error: a GET names its schema
      () => client.get("/tags", {}),
      // @ts-expect-error: a GET names its schema
      () => client.get("/tags"),
      // @ts-expect-error: a POST names its schema
      () => client.post("/tags", { body: {} }),
      // @ts-expect-error: a PUT names its schema
      () => client.put("/tags/{id}", { params: { id: "t" }, body: {} }),
      // @ts-expect-error: a PATCH names its schema
      () => client.patch("/agents/{id}", { params: { id: "a" }, body: {} }),
      // @ts-expect-error: a DELETE names its schema, anyJsonSchema when its answer is not read
      () => client.delete("/tags/{id}", { params: { id: "t" } }),
    ];
    expect(calls).toHaveLength(6);
  });

  it("is refused at run time before any request is sent", async () => {
    resetRequestCounts();
    await expect(client.get("/tags", {} as { schema: typeof anyJsonSchema })).rejects.toThrow(/GET \/tags: no response schema; every call names the schema/);
    await expect(client.request("DELETE", "/tags/{id}", { params: { id: "t" } } as never)).rejects.toThrow(/no response schema/);
    expect(getRequestCounts().total).toBe(0);
  });
});
