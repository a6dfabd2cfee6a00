import { describe, expect, it } from "vitest";
import { NotFoundError, type CdcClient } from "../../../provider/client/index.js";
import { LiveCache, listAll } from "../../../provider/live-cache.js";

// The live cache against a scripted API: paging edge cases and failures, without sockets.

interface Call {
  path: string;
  query?: Record<string, unknown>;
}

type Answer = (call: Call) => unknown;

function fakeApi(answer: Answer): { api: CdcClient; calls: Call[] } {
  const calls: Call[] = [];
  const api = {
    createdFrom: "terraform",
    async get(path: string, opts: { query?: Record<string, unknown>; params?: Record<string, string> } = {}) {
      const call = { path: path.replace("{id}", opts.params?.["id"] ?? "{id}"), query: opts.query };
      calls.push(call);
      const out = answer(call);
      if (out instanceof Error) throw out;
      return out;
    },
    async findOne(path: string, _schema: unknown, opts: { params?: Record<string, string> } = {}) {
      const call = { path: path.replace("{id}", opts.params?.["id"] ?? "{id}") };
      calls.push(call);
      const out = answer(call);
      if (out instanceof Error) throw out;
      return out;
    },
  } as unknown as CdcClient;
  return { api, calls };
}

const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `s${from + i}`, name: `n${from + i}`, connector_status: "Active" }));

describe("listAll", () => {
  it("pages on until has_next is false when the API gives no total", async () => {
    const { api, calls } = fakeApi(({ query }) => {
      const page = Number(query?.["page"]);
      return { result: items((page - 1) * 100, page < 3 ? 100 : 7), has_next: page < 3 };
    });
    const all = await listAll(api, "source");
    expect(all.size).toBe(207);
    expect(calls.map((c) => c.query?.["page"])).toEqual([1, 2, 3]);
    expect(calls.every((c) => c.query?.["page_size"] === 100)).toBe(true);
  });

  it("fetches the pages the total announces, then follows growth since", async () => {
    const { api, calls } = fakeApi(({ query }) => {
      const page = Number(query?.["page"]);
      // The total said 250 when page 1 was read; by page 3 there are 310.
      if (page === 1) return { result: items(0, 100), total: 250, has_next: true };
      if (page === 2) return { result: items(100, 100), total: 300, has_next: true };
      if (page === 3) return { result: items(200, 100), total: 310, has_next: true };
      return { result: items(300, 10), total: 310, has_next: false };
    });
    const all = await listAll(api, "source");
    expect(all.size).toBe(310);
    expect(calls.map((c) => c.query?.["page"])).toEqual([1, 2, 3, 4]);
  });

  it("stops at the first page when it says there is nothing more", async () => {
    const { api, calls } = fakeApi(() => ({ result: items(0, 3), total: 3, has_next: false }));
    expect((await listAll(api, "destination")).size).toBe(3);
    expect(calls).toHaveLength(1);
  });
});

describe("LiveCache", () => {
  it("drops a failed listing, so the next check lists again", async () => {
    let fail = true;
    const { api, calls } = fakeApi(({ path }) => {
      if (path === "/sources" && fail) return new Error("503 Service Unavailable");
      if (path === "/sources") return { result: items(0, 2), total: 2, has_next: false };
      return undefined;
    });
    const reader = new LiveCache(api, { prefetchComparisons: false }).reader("diff");
    await expect(reader.connector("source", "s0")).rejects.toThrow(/503/);
    fail = false;
    await expect(reader.connector("source", "s1")).resolves.toMatchObject({ id: "s1" });
    expect(calls.filter((c) => c.path === "/sources")).toHaveLength(2);
  });

  it("answers a failed prefetch with a fetch of the caller's own, and never leaves a rejection unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const compared = new Map<string, number>();
      const { api } = fakeApi(({ path }) => {
        if (path === "/destinations") return { result: [{ id: "d1", created_from: "terraform" }, { id: "d2", created_from: "terraform" }], total: 2, has_next: false };
        const id = path.split("/")[2]!;
        const n = (compared.get(id) ?? 0) + 1;
        compared.set(id, n);
        // Every prefetch fails; asked again, the API answers.
        return n === 1 ? new Error("502 Bad Gateway") : { has_changes: false, latest_timestamp: `t-${id}` };
      });
      const reader = new LiveCache(api, { prefetchComparisons: true, prefetchWorkers: 2 }).reader("diff");
      await reader.connector("destination", "d1");
      await new Promise((r) => setTimeout(r, 20));
      await expect(reader.comparison("d1")).resolves.toMatchObject({ latest_timestamp: "t-d1" });
      await expect(reader.comparison("d2")).resolves.toMatchObject({ latest_timestamp: "t-d2" });
      expect(Object.fromEntries(compared)).toEqual({ d1: 2, d2: 2 });
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("takes a 404 on the comparison for a destination that is gone", async () => {
    const gone = new NotFoundError({ method: "GET", path: "/destinations/d9/config-history/compare-to-original", status: 404, detail: "not found" });
    const { api } = fakeApi(({ path }) => (path.includes("compare-to-original") ? gone : { result: [], total: 0, has_next: false }));
    const reader = new LiveCache(api, { prefetchComparisons: false }).reader("read");
    await expect(reader.comparison("d9")).resolves.toBeUndefined();
  });
});
