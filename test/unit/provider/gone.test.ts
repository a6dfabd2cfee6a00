import { describe, expect, it } from "vitest";
import { ConflictError, NotFoundError } from "../../../provider/client/index.js";
import { deleteOnceReleased, RELEASE_WAIT_MS } from "../../../provider/resources/gone.js";

const ctx = { method: "DELETE", path: "/sources/s1", requestId: "r1" };
const inUse = () => new ConflictError({ ...ctx, status: 409, detail: "Source 's1' is used by pipeline 'p' (p1): delete that pipeline or take the source out of it first" });

describe("deleteOnceReleased", () => {
  it("sends the delete again while a pipeline still uses the object, then answers", async () => {
    let calls = 0;
    const slept: number[] = [];
    const result = await deleteOnceReleased(
      async () => {
        if (++calls < 4) throw inUse();
        return "deleted";
      },
      async (ms) => void slept.push(ms),
    );
    expect(result).toBe("deleted");
    expect(calls).toBe(4);
    expect(slept).toEqual([200, 400, 800]);
  });

  it("gives up with the API's 409, naming the pipeline, once RELEASE_WAIT_MS has passed", async () => {
    let clock = 0;
    let calls = 0;
    const err = await deleteOnceReleased(
      async () => {
        calls++;
        throw inUse();
      },
      async (ms) => void (clock += ms),
      () => clock,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toMatch(/used by pipeline 'p'/);
    expect(clock).toBeLessThanOrEqual(RELEASE_WAIT_MS);
    expect(calls).toBeGreaterThan(3);
  });

  it("does not retry any other failure", async () => {
    let calls = 0;
    const other = new ConflictError({ ...ctx, status: 409, detail: "something else" });
    await expect(deleteOnceReleased(async () => { calls++; throw other; }, async () => {})).rejects.toBe(other);
    await expect(deleteOnceReleased(async () => { calls++; throw new NotFoundError({ ...ctx, status: 404 }); }, async () => {})).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toBe(2);
  });
});
