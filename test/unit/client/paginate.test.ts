import { describe, expect, it } from "vitest";
import { paginatePages, type Paginated } from "../../../provider/client/index.js";
import { expandPath, queryString } from "../../../provider/client/index.js";

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("paginatePages", () => {
  it("stops when has_next is false", async () => {
    const pages: number[] = [];
    const items = await collect(
      paginatePages<number>(async (page, size): Promise<Paginated<number>> => {
        pages.push(page);
        expect(size).toBe(100);
        return { result: [page * 10, page * 10 + 1], has_next: page < 3 };
      }),
    );
    expect(items).toEqual([10, 11, 20, 21, 30, 31]);
    expect(pages).toEqual([1, 2, 3]);
  });

  it("without has_next stops on a short page", async () => {
    const items = await collect(
      paginatePages<number>(async (page) => ({ result: page === 1 ? [1, 2] : [3] }), { pageSize: 2 }),
    );
    expect(items).toEqual([1, 2, 3]);
  });

  it("throws after maxPages instead of looping", async () => {
    await expect(collect(paginatePages<number>(async (p) => ({ result: [p], has_next: true }), { maxPages: 3 }))).rejects.toThrow(/3 pages/);
  });
});

describe("path and query helpers", () => {
  it("encodes path params and repeats array query keys", () => {
    expect(expandPath("/sources/{id}/resume", { id: "a/b c" })).toBe("/sources/a%2Fb%20c/resume");
    expect(() => expandPath("/sources/{id}", {})).toThrow(/\{id\}/);
    expect(queryString({ tag_ids: ["a", "b"], page: 1, x: undefined, y: null, secret_returned: false })).toBe(
      "?tag_ids=a&tag_ids=b&page=1&secret_returned=false",
    );
    expect(queryString({})).toBe("");
  });
});
