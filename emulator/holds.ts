import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Holds: a test that must stop a client halfway (a `pulumi up` killed among its creates) arranges
 * it by count, not by time. A hold on some routes lets their requests through until `after` of
 * them have been answered 2xx; the ones after that wait, unanswered, until the hold is released.
 * `reached` tells the test the moment has come: `after` answered, and one more sent and waiting
 * (the client has a request it never saw answered). Releasing closes the waiting requests'
 * connections without handling them, so exactly `after` of them took effect.
 */
export interface RequestHold {
  /** The routes held, as `stats().requests` names them (`"POST /sources"`, `"DELETE /sources/:source_id"`). */
  readonly routes: readonly string[];
  readonly after: number;
  /**
   * Resolves once `after` requests of the routes have been answered 2xx and another is waiting;
   * rejects when the hold is released before that.
   */
  readonly reached: Promise<void>;
  /** Requests of the routes answered 2xx since the hold was placed. */
  answered(): number;
  /** Requests waiting now. */
  waiting(): number;
  /** Ends the hold: waiting requests lose their connection unhandled (nothing changes); later ones are handled as usual. Idempotent. */
  release(): void;
}

/**
 * The route of a hold on every write the tenant keeps: any POST, PUT, PATCH or DELETE, but not a
 * token's (asking for a token changes nothing of the tenant, and a client asks when it likes).
 */
export const WRITES = "WRITE *";

/** A route that changes the tenant: any POST, PUT, PATCH or DELETE but a token's (also what tests count as writes). */
export function isWrite(route: string): boolean {
  return /^(POST|PUT|PATCH|DELETE) \//.test(route) && !route.startsWith("POST /auth/access-token");
}

interface Waiter {
  request: FastifyRequest;
  go: (admitted: boolean) => void;
}

class Hold implements RequestHold {
  readonly reached: Promise<void>;
  private ok = 0;
  /** Admitted and not yet answered; `ok + inFlight` never exceeds `after`, so at most `after` succeed. */
  private readonly inFlight = new Set<FastifyRequest>();
  private readonly queue: Waiter[] = [];
  private released = false;
  private settled = false;
  private resolveReached!: () => void;
  private rejectReached!: (error: Error) => void;

  constructor(
    readonly routes: readonly string[],
    readonly after: number,
    private readonly onRelease: (hold: Hold) => void,
  ) {
    this.reached = new Promise<void>((resolve, reject) => {
      this.resolveReached = resolve;
      this.rejectReached = reject;
    });
    // Whoever awaits `reached` sees the rejection; nobody awaiting it is no unhandled rejection.
    this.reached.catch(() => undefined);
  }

  answered(): number {
    return this.ok;
  }

  waiting(): number {
    return this.queue.length;
  }

  covers(route: string): boolean {
    return !this.released && (this.routes.includes(route) || (this.routes.includes(WRITES) && isWrite(route)));
  }

  /** Whether the request may go on (now, or once a slot frees); false when the hold let it go unhandled. */
  enter(request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> {
    if (this.ok + this.inFlight.size < this.after) {
      this.inFlight.add(request);
      return true;
    }
    return new Promise<boolean>((go) => {
      const waiter: Waiter = { request, go };
      this.queue.push(waiter);
      // The client gave up (or was killed): the request leaves the queue, never handled.
      reply.raw.once("close", () => {
        const at = this.queue.indexOf(waiter);
        if (at < 0) return;
        this.queue.splice(at, 1);
        go(false);
      });
      this.check();
    });
  }

  /** The admitted request was answered (`status`), or its connection closed first (undefined). */
  finish(request: FastifyRequest, status: number | undefined): void {
    if (!this.inFlight.delete(request)) return;
    if (status !== undefined && status >= 200 && status < 300) this.ok += 1;
    else this.next();
    this.check();
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    for (const waiter of this.queue.splice(0)) waiter.go(false);
    if (!this.settled) {
      this.settled = true;
      this.rejectReached(new Error(`the hold on ${this.routes.join(", ")} was released before ${this.after} answered and one more waiting`));
    }
    this.onRelease(this);
  }

  /** A slot freed (an admitted request failed): the first waiting request takes it. */
  private next(): void {
    const waiter = this.queue.shift();
    if (!waiter) return;
    this.inFlight.add(waiter.request);
    waiter.go(true);
  }

  private check(): void {
    if (this.settled || this.ok < this.after || this.queue.length === 0) return;
    this.settled = true;
    this.resolveReached();
  }
}

/** The holds of one emulator. */
export class Holds {
  private readonly active = new Set<Hold>();
  /** Which hold admitted a request, so its answer is counted there. */
  private readonly admittedBy = new WeakMap<FastifyRequest, Hold>();

  place(routes: string | readonly string[], after: number): RequestHold {
    const list = typeof routes === "string" ? [routes] : [...routes];
    if (list.length === 0 || list.some((r) => typeof r !== "string" || (r !== WRITES && !/^[A-Z]+ \//.test(r)))) {
      throw new RangeError(`routes must be "METHOD /route/:pattern" keys as stats().requests names them, or WRITES, got ${JSON.stringify(routes)}`);
    }
    if (!Number.isInteger(after) || after < 0) throw new RangeError(`after must be a non-negative integer, got ${after}`);
    const hold = new Hold(list, after, (h) => this.active.delete(h));
    this.active.add(hold);
    return hold;
  }

  /**
   * Runs a request of `route` through the hold on it, if any: true when it goes on (handled as
   * usual), false when the hold let it go unanswered (the caller closes its connection).
   */
  async enter(route: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const hold = [...this.active].find((h) => h.covers(route));
    if (!hold) return true;
    const admitted = await hold.enter(request, reply);
    if (!admitted) return false;
    if (request.raw.socket.destroyed) {
      // Let in, but its client is already gone: it frees the slot, unhandled.
      hold.finish(request, undefined);
      return false;
    }
    this.admittedBy.set(request, hold);
    // Answered, onSend has counted it already; a connection closed unanswered (a dropped request,
    // a client gone) frees its slot for the next waiting request.
    reply.raw.once("close", () => hold.finish(request, undefined));
    return true;
  }

  /** The request's answer is about to be sent with `status` (from onSend). */
  answered(request: FastifyRequest, status: number): void {
    this.admittedBy.get(request)?.finish(request, status);
  }

  releaseAll(): void {
    for (const hold of [...this.active]) hold.release();
  }
}
