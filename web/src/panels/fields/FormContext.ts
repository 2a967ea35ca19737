import { createContext, useContext } from 'react';
import type { WorkflowState } from '@weft/workflow';
import type { BlockDefinition, ProviderDefinition, ToolDefinition } from '../../api';
import { blockValues } from '../blockForm';

/** What the fields of one block's form read besides their own value. */
export interface FormEnv {
  /**
   * The workflow as it is when read (the block panel's env reads it through a getter): the form
   * renders again when its own block changes, not for an edit of another block, so a field reads it
   * when it needs it (a reference menu opening, a default being written) rather than keeping it.
   */
  readonly state: WorkflowState;
  blockId: string;
  workflowId: string;
  definitions: readonly BlockDefinition[];
  providers: readonly ProviderDefinition[];
  tools: readonly ToolDefinition[];
  envKeys: readonly string[];
  /** The user may only read this workflow (its workspace gave them read access): fields write nothing. */
  readOnly?: boolean;
}

export const FormContext = createContext<FormEnv | null>(null);

export function useFormEnv(): FormEnv {
  const env = useContext(FormContext);
  if (!env) throw new Error('a field outside a block form');
  return env;
}

/** The block a field belongs to: its type and its form values (sub-block id → value). */
export interface FormBlock {
  blockType: string;
  values: Readonly<Record<string, unknown>>;
}

/**
 * Set where a form is not the selected block's own — an agent's tool card edits a tool block's
 * values kept in the agent's `tools` — so fields reading their neighbours (a selector's account)
 * read that form's values.
 */
export const FormBlockContext = createContext<FormBlock | null>(null);

/** The block whose form a field is in: the tool card's, else the selected block as the workflow holds it now. */
export function useFormBlock(): FormBlock {
  const env = useFormEnv();
  const own = useContext(FormBlockContext);
  if (own) return own;
  const block = env.state.blocks[env.blockId];
  return { blockType: block?.type ?? '', values: block ? blockValues(block) : {} };
}
