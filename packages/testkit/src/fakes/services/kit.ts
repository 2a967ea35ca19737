import { createFakeServer, type FakeAnswer, type FakeHandler, type FakeServer } from '../server.js';

/** A scripted route of a service fake: method, path (`:name` matches a segment) and its default answer. */
export type FakeRoute = readonly [method: string, path: string, answer: FakeAnswer | FakeHandler];

/**
 * A fake of one service family: a fake server answering each route's default (a recorded answer of
 * the real API). Tests script errors with `once(method, path, {status, json})` and read requests
 * with `received(method, path)`.
 */
export async function createServiceFake(routes: readonly FakeRoute[]): Promise<FakeServer> {
  const server = await createFakeServer();
  for (const [method, path, answer] of routes) server.on(method, path, answer);
  return server;
}
