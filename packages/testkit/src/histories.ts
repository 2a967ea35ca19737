/**
 * Stored Temporal histories for replay tests (`@weft/testkit/histories`, a subpath of its own: only
 * the tests that keep or replay histories load the worker SDK). Tests that run a workflow keep its
 * history with `keepHistory` when WEFT_WRITE_HISTORIES is set; a replay test reads the kept ones with
 * `storedHistories` and replays them with today's workflow code (`replayFailures`), which fails when
 * a change to that code is not deterministic.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyFromJSON, historyToJSON, type History } from '@temporalio/common/lib/proto-utils.js';
import { Runtime, Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';

/** What a history is fetched from: a workflow handle of `@temporalio/client`. */
export interface HistorySource {
  workflowId: string;
  fetchHistory(): Promise<History>;
}

/** A kept history: its file name without `.json`, the workflow id it ran under, its proto JSON. */
export interface StoredHistory {
  name: string;
  workflowId: string;
  json: unknown;
}

/**
 * Saves a workflow's history (`{workflowId, history}`) as `<dir>/<name>.json` when WEFT_WRITE_HISTORIES
 * is `1`, or as `<name>.<value>.json` for another value (histories of a newer code path beside the
 * older ones, which must keep replaying too); without the variable it writes nothing. Answers the
 * history, fetched either way, for the caller's own checks.
 */
export async function keepHistory(source: HistorySource, dir: string, name: string): Promise<History> {
  const history = await source.fetchHistory();
  const mode = process.env.WEFT_WRITE_HISTORIES;
  if (!mode) return history;
  mkdirSync(dir, { recursive: true });
  const suffix = mode === '1' ? '' : `.${mode}`;
  // The workflow id is kept beside the history: code that derives ids from it replays only with it.
  writeFileSync(join(dir, `${name}${suffix}.json`), `${JSON.stringify({ workflowId: source.workflowId, history: JSON.parse(historyToJSON(history)) as unknown })}\n`);
  return history;
}

/** Every history kept in `dir`, by file name. */
export function storedHistories(dir: string): StoredHistory[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { workflowId: string; history: unknown };
      return { name: f.slice(0, -'.json'.length), workflowId: file.workflowId, json: file.history };
    });
}

/** Replays the histories with the workflow code of `options` (its bundle); answers the ones that failed and why. */
export async function replayFailures(options: ReplayWorkerOptions, histories: StoredHistory[]): Promise<Array<{ name: string; error: string }>> {
  const failures: Array<{ name: string; error: string }> = [];
  const names = new Map(histories.map((h) => [h.workflowId, h.name]));
  if (names.size !== histories.length) throw new Error('two stored histories share a workflow id; replay results could not be told apart');
  const input = histories.map((h) => ({ workflowId: h.workflowId, history: historyFromJSON(h.json) }));
  for await (const result of Worker.runReplayHistories(options, input)) {
    if (result.error) failures.push({ name: names.get(result.workflowId) ?? result.workflowId, error: `${result.error.name}: ${result.error.message}` });
  }
  return failures;
}

/** The workflow type a stored history ran (its first event's), `undefined` when it does not say. */
export function historyWorkflowType(json: unknown): string | undefined {
  const first = (json as { events?: Array<{ workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }> }).events?.[0];
  return first?.workflowExecutionStartedEventAttributes?.workflowType?.name;
}

/**
 * What the histories kept in `dir` lack for a worker serving `served` (the workflow functions its
 * bundle's entry exports), given the histories `expected` per workflow type: a served workflow with
 * no expected list or no stored history, an expected one not served, a listed history not stored, a
 * history of a workflow not served. Empty when nothing is missing.
 */
export function historyGaps(dir: string, served: string[], expected: Record<string, string[]>): string[] {
  const byType = new Map<string, string[]>();
  for (const h of storedHistories(dir)) {
    const type = historyWorkflowType(h.json) ?? 'unknown';
    byType.set(type, [...(byType.get(type) ?? []), h.name]);
  }
  const gaps: string[] = [];
  for (const type of served) {
    if (!expected[type]) gaps.push(`${type}: served, no histories listed for it`);
    if (!byType.has(type)) gaps.push(`${type}: served, no history stored`);
  }
  for (const [type, names] of Object.entries(expected)) {
    if (!served.includes(type)) gaps.push(`${type}: listed, not served`);
    for (const name of names) if (!byType.get(type)?.includes(name)) gaps.push(`${type}: history ${name} not stored`);
  }
  for (const [type, names] of byType) if (!served.includes(type)) gaps.push(`${type}: histories ${names.join(', ')} of a workflow not served`);
  return gaps;
}

/**
 * A worker's workflow bundle for a replay test, built by `build` (the service's own bundle function)
 * into a fresh directory of its own, so a cached bundle of other code can never answer for this one;
 * the code is read and the directory removed. Installs Temporal's runtime, quiet, if not yet installed.
 */
export async function freshReplayBundle(build: (cacheDir: string) => Promise<{ codePath: string }>): Promise<{ code: string }> {
  try {
    Runtime.install({ logger: temporalLogger(createLogger('temporal-replay', 'silent')), shutdownSignals: [] });
  } catch {
    // Installed already in this process.
  }
  const cacheDir = mkdtempSync(join(tmpdir(), 'weft-replay-bundle-'));
  try {
    return { code: readFileSync((await build(cacheDir)).codePath, 'utf8') };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** Calls `visit` with every object in a JSON value, depth first (arrays walked, not visited). */
export function forEachObject(json: unknown, visit: (record: Record<string, unknown>) => void): void {
  if (Array.isArray(json)) {
    for (const item of json) forEachObject(item, visit);
    return;
  }
  if (!json || typeof json !== 'object') return;
  const record = json as Record<string, unknown>;
  visit(record);
  for (const value of Object.values(record)) forEachObject(value, visit);
}

/** Every JSON payload a history carries (workflow and activity inputs and results, markers), decoded; others skipped. */
export function historyPayloads(json: unknown): unknown[] {
  const out: unknown[] = [];
  forEachObject(json, (record) => {
    if (!Array.isArray(record.payloads)) return;
    for (const payload of record.payloads as Array<{ data?: unknown }>) {
      if (typeof payload?.data !== 'string') continue;
      try {
        out.push(JSON.parse(Buffer.from(payload.data, 'base64').toString('utf8')));
      } catch {
        // Not JSON (binary or encrypted): nothing to read.
      }
    }
  });
  return out;
}
