import { FETCH_TIMEOUT_MARGIN_MS, MAX_FETCHES_IN_FLIGHT, MAX_FETCH_RESPONSE_BYTES, fetchTotalMessage, sandboxFetch, type SandboxFetchDone } from './sandboxFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';

/** A request the code made, as its thread sends it: the job's id, the request's number in the call, the request (JSON) and a binary body's bytes. */
export interface FetchRequest {
  id: number;
  req: number;
  request: string;
  bytes?: Uint8Array;
}

/** One call's outbound requests: in flight, waiting for a turn, and the bytes handed to the code so far. */
export interface FetchLane {
  /** The job's outbound requests in flight: aborted when it ends, however it ends. */
  fetches: Set<AbortController>;
  /** Requests waiting for one of the MAX_FETCHES_IN_FLIGHT in flight to end. */
  waitingFetches: FetchRequest[];
  /** Bytes of the response bodies handed to the code so far (bounded by the call's memory limit). */
  fetchedBytes: number;
}

/** What a lane's requests need of the call that makes them. */
export interface FetchCall {
  policy: AddressPolicy;
  /** The call's memory limit: the response bodies together may not pass it. */
  limitBytes: number;
  /** Time left to the call's own limit. */
  timeLeftMs: () => number;
  /** Whether the call still waits for answers (its lane holds it and it is not answered). */
  live: () => boolean;
  /** Hands a request's answer to the call's thread. */
  post: (done: { id: number; req: number } & SandboxFetchDone) => void;
}

/** Aborts a call's requests in flight and drops those waiting for a turn. */
export function closeFetches(lane: FetchLane): void {
  for (const c of lane.fetches) c.abort();
  lane.fetches.clear();
  lane.waitingFetches = [];
}

/** Makes one request of a call's code: at most MAX_FETCHES_IN_FLIGHT at once, bodies totalling at most its memory limit. */
export function fetchFor(lane: FetchLane, m: FetchRequest, call: FetchCall): void {
  if (!call.live()) return;
  if (lane.fetches.size >= MAX_FETCHES_IN_FLIGHT) {
    lane.waitingFetches.push(m);
    return;
  }
  const controller = new AbortController();
  lane.fetches.add(controller);
  const limit = call.limitBytes;
  const left = limit - lane.fetchedBytes;
  // The call's own limit answers a request that outlives it; the request's timer only ends the request.
  const timeoutMs = Math.max(1, call.timeLeftMs()) + FETCH_TIMEOUT_MARGIN_MS;
  const fetched: Promise<SandboxFetchDone> =
    left <= 0
      ? Promise.resolve({ error: fetchTotalMessage(limit) })
      : sandboxFetch(m.request, { policy: call.policy, signal: controller.signal, timeoutMs, maxBodyBytes: Math.min(MAX_FETCH_RESPONSE_BYTES, left), totalLimitBytes: limit }, m.bytes);
  void fetched.then((done) => {
    lane.fetches.delete(controller);
    if (controller.signal.aborted || !call.live()) return;
    let answer = done;
    if ('body' in done) {
      lane.fetchedBytes += done.body.byteLength;
      if (lane.fetchedBytes > limit) answer = { error: fetchTotalMessage(limit) };
    }
    call.post({ id: m.id, req: m.req, ...answer });
    const next = lane.waitingFetches.shift();
    if (next) fetchFor(lane, next, call);
  });
}
