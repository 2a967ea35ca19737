import type { Browser, Page } from 'playwright-core';
import { openWorkflow } from './editing.js';
import { as, signUp, type TestUser } from './session.js';

/** A block of a workflow's stored state (GET /api/workflows/{id}), with the form values the block panel edits. */
export interface StoredBlock {
  id: string;
  type: string;
  subBlocks: Record<string, { value: unknown } | undefined>;
}

/** The stored state a test reads unless it names its own. */
export type StoredState = { blocks: Record<string, StoredBlock> };

/** A fresh account's new workflow: its owner, the owner's API caller, the workflow and readers of what is stored. */
export interface NewWorkflow<S = StoredState> {
  owner: TestUser;
  call: ReturnType<typeof as>;
  workflowId: string;
  /** The owner's session cookie, for a page of the browser. */
  cookie: string;
  /** The workflow's stored state (`S`: the fields the test reads). */
  state(): Promise<S>;
  /** The stored value of one block's form field (undefined while it has none). */
  stored(blockId: string, subBlockId: string): Promise<unknown>;
  /** Opens the workflow in a page of `browser` (signed in as its owner) once its canvas is drawn and live. */
  open(browser: Browser): Promise<{ page: Page; errors: string[] }>;
  /** The id of the starter block the registry created with the workflow. */
  starter: string;
}

/** Signs a new account up (named `name`) and creates a workflow in its workspace with `fields` (name, folderId, …). */
export async function newWorkflow<S = StoredState>(name: string, fields: Record<string, unknown> = {}): Promise<NewWorkflow<S>> {
  const owner = await signUp(name);
  const call = as(owner);
  const created = await call<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, ...fields });
  if (created.status !== 201) throw new Error(`creating the workflow answered ${created.status}: ${JSON.stringify(created.body)}`);
  const workflowId = created.body.id;
  const read = async <T>() => (await call<{ data: { state: T } }>('GET', `/api/workflows/${workflowId}`)).body.data.state;
  const state = () => read<S>();
  const stored = async (blockId: string, subBlockId: string) => (await read<StoredState>()).blocks[blockId]?.subBlocks[subBlockId]?.value;
  const starter = Object.values((await read<StoredState>()).blocks).find((b) => b.type === 'starter')?.id ?? '';
  const cookie = owner.headers.cookie ?? '';
  const open = (browser: Browser) => openWorkflow(browser, cookie, workflowId);
  return { owner, call, workflowId, cookie, state, stored, open, starter };
}

/** `newWorkflow`, opened in a page of `browser` once its canvas is drawn and live; page errors collect in `errors`. */
export async function openNewWorkflow<S = StoredState>(browser: Browser, name: string, fields: Record<string, unknown> = {}): Promise<NewWorkflow<S> & { page: Page; errors: string[] }> {
  const workflow = await newWorkflow<S>(name, fields);
  return { ...workflow, ...(await workflow.open(browser)) };
}
