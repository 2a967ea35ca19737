/**
 * Stored Temporal histories for replay tests (`@weft/testkit/histories`, a subpath of its own: only
 * the tests that keep or replay histories load the worker SDK). Tests that run a workflow keep its
 * history with `keepHistory` when WEFT_WRITE_HISTORIES is set; a replay test reads the kept ones with
 * `storedHistories` and replays them with today's workflow code (`replayFailures`), which fails when
 * a change to that code is not deterministic.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJSON, historyToJSON, type History } from '@temporalio/common/lib/proto-utils.js';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';

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
