import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { dependentFields, type SubBlockConfig } from '@weft/catalog';
import type { BlockState, Command, WorkflowState } from '@weft/workflow';
import { api, type BlockDefinition } from '../api';
import { newId } from '../collab/useWorkflowSession';
import { BlockIcon } from '../ui/icons';
import { blockValues, fieldValue, formFields, hasAdvancedFields, nameAfterRename } from './blockForm';
import { FormContext, type FormEnv } from './fields/FormContext';
import { RefText } from './fields/RefText';
import { SubBlockField } from './SubBlockField';
import { messagesByField, validationMessages } from './validation';

type Edit = (commands: Command[]) => void;

function RenameForm({ block, edit }: { block: BlockState; edit: Edit }) {
  const [name, setName] = useState(block.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A blank or clashing name is refused by the rename itself, whose message the editor shows.
    if (name !== block.name) edit([{ type: 'renameBlock', id: block.id, name }]);
    setName(nameAfterRename(name, block.name));
  };
  return (
    <form className="rename" onSubmit={submit}>
      <input className="input" aria-label="Block name" value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit" className="btn btn-sm">
        Rename
      </button>
    </form>
  );
}

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <label className="toggle">
      <input type="checkbox" className="toggle-input" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** The block's settings: enabled, advanced mode (where it has advanced fields), width and handles, and duplicating it. */
function BlockSettings({ block, definition, edit }: { block: BlockState; definition: BlockDefinition | undefined; edit: Edit }) {
  const { id } = block;
  const container = block.type === 'loop' || block.type === 'parallel';
  return (
    <div className="block-settings">
      <Toggle label="Enabled" checked={block.enabled} onChange={() => edit([{ type: 'toggleEnabled', id }])} />
      {definition && hasAdvancedFields(definition) && (
        <Toggle label="Advanced mode" checked={block.advancedMode} onChange={(advancedMode) => edit([{ type: 'setAdvancedMode', id, advancedMode }])} />
      )}
      {!container && <Toggle label="Wide" checked={block.isWide} onChange={(isWide) => edit([{ type: 'setWide', id, isWide }])} />}
      {!container && <Toggle label="Horizontal handles" checked={block.horizontalHandles} onChange={() => edit([{ type: 'toggleHandles', id }])} />}
      {/* A workflow has one starter: it has no duplicate. */}
      {block.type !== 'starter' && (
        <button type="button" className="btn btn-sm" onClick={() => edit([{ type: 'duplicateBlock', id, newId: newId() }])}>
          Duplicate block
        </button>
      )}
    </div>
  );
}

const COLLECTION_FIELD: SubBlockConfig = { id: 'collection', type: 'long-input', placeholder: '["a", "b", "c"] or <agent1.content>', rows: 3 };

/** A loop's or parallel's own settings: its kind, count (1..50) and collection (inside the form's context, for the `<` menu). */
function ContainerSettings({ block, edit }: { block: BlockState; edit: Edit }) {
  const loop = block.type === 'loop';
  const kind = loop ? (block.data.loopType ?? 'for') : (block.data.parallelType ?? 'collection');
  const count = block.data.count ?? 5;
  const collection = typeof block.data.collection === 'string' ? block.data.collection : block.data.collection === undefined ? '' : JSON.stringify(block.data.collection);
  const byCount = loop ? kind === 'for' : kind === 'count';
  const update = (fields: { kind?: string; count?: number; items?: string }) =>
    edit([
      loop
        ? { type: 'updateLoop', id: block.id, ...(fields.kind ? { loopType: fields.kind as 'for' | 'forEach' } : {}), ...(fields.count !== undefined ? { iterations: fields.count } : {}), ...(fields.items !== undefined ? { forEachItems: fields.items } : {}) }
        : { type: 'updateParallel', id: block.id, ...(fields.kind ? { parallelType: fields.kind } : {}), ...(fields.count !== undefined ? { count: fields.count } : {}), ...(fields.items !== undefined ? { distribution: fields.items } : {}) },
    ]);
  return (
    <div className="block-form">
      <div className="field">
        <label htmlFor={`${block.id}-kind`}>{loop ? 'Loop type' : 'Parallel type'}</label>
        <select id={`${block.id}-kind`} className="input select" value={kind} onChange={(e) => update({ kind: e.target.value })}>
          {loop ? (
            <>
              <option value="for">For (a number of times)</option>
              <option value="forEach">For each (item of a collection)</option>
            </>
          ) : (
            <>
              <option value="collection">Each item of a collection</option>
              <option value="count">A number of copies</option>
            </>
          )}
        </select>
      </div>
      {byCount ? (
        <div className="field">
          <label htmlFor={`${block.id}-count`}>{loop ? 'Iterations' : 'Copies'} (1 to 50)</label>
          <input
            id={`${block.id}-count`}
            className="input"
            type="number"
            min={1}
            max={50}
            defaultValue={count}
            key={count}
            onBlur={(e) => {
              const n = Number(e.target.value);
              if (Number.isFinite(n) && n !== count) update({ count: n });
            }}
          />
        </div>
      ) : (
        // A text field like a block's: `<` offers the outputs of the blocks before the container.
        <RefText
          field={COLLECTION_FIELD}
          label="Collection"
          multiLine
          value={collection}
          send={(items) => {
            if (items !== collection) update({ items });
            return true;
          }}
        />
      )}
      <p className="muted">Drop blocks into the container; connect its Start handle to the first block inside.</p>
    </div>
  );
}

/**
 * A user's edit of one field: with the selectors whose list is of its choice (a Jira issue of the
 * project) emptied in the same command, so collaborators and undo see one edit. Only the form sends
 * it: values loaded or arriving from another browser clear nothing.
 */
function setValue(id: string, definition: BlockDefinition | undefined, subBlockId: string, value: unknown): Command {
  const clear = definition ? dependentFields(definition, subBlockId) : [];
  return { type: 'setSubBlockValue', id, subBlockId, value, ...(clear.length > 0 ? { clear } : {}) };
}

/** Validation messages from POST /api/blocks/validate, every one of them (`validationMessages`), asked a moment after the values settle. */
function useValidation(block: BlockState): string[] {
  const values = useMemo(() => blockValues(block), [block]);
  const json = JSON.stringify(values);
  const [settled, setSettled] = useState(json);
  useEffect(() => {
    const t = window.setTimeout(() => setSettled(json), 400);
    return () => window.clearTimeout(t);
  }, [json]);
  const answer = useQuery({
    queryKey: ['validate', block.type, settled],
    queryFn: () => validationMessages(block.type, JSON.parse(settled) as Record<string, unknown>, (params) => api.validateBlock(block.type, params)),
    staleTime: Infinity,
    // The messages shown stay until the new values' answer comes (a few requests: one per field set aside);
    // without it every edit blanked them all for that time, and a fixed field's went with the others'. The panel
    // is made again for another block (keyed by its id), so no block is shown another's messages.
    placeholderData: keepPreviousData,
    enabled: block.type !== 'loop' && block.type !== 'parallel',
  });
  return answer.data ?? NO_MESSAGES;
}

const NO_MESSAGES: string[] = [];

interface PanelProps {
  block: BlockState;
  /**
   * The workflow as it is now, read when a field needs it. Not the state itself: the panel then
   * renders again only when its own block changes, not for every edit of another block.
   */
  currentState(): WorkflowState;
  definition: BlockDefinition | undefined;
  edit: Edit;
  workflowId: string;
  /** Shown to a reader: every control disabled, nothing written. */
  readOnly?: boolean;
}

/** The one selected block: its name and type, its settings and the fields its form shows now, all edited live. */
export function BlockPanel({ block, currentState, definition, edit, workflowId, readOnly = false }: PanelProps) {
  const blocks = useQuery({ queryKey: ['blocks'], queryFn: api.blocks, staleTime: Infinity });
  const providers = useQuery({ queryKey: ['providers'], queryFn: api.providers, staleTime: Infinity });
  const tools = useQuery({ queryKey: ['tools'], queryFn: api.tools, staleTime: Infinity });
  const environment = useQuery({ queryKey: ['environment'], queryFn: api.environment, staleTime: 30_000 });
  const fields = definition ? formFields(definition, block) : [];
  const problems = messagesByField(fields, useValidation(block));
  const env: FormEnv = {
    get state() {
      return currentState();
    },
    blockId: block.id,
    workflowId,
    definitions: blocks.data ?? [],
    providers: providers.data ?? [],
    tools: tools.data ?? [],
    envKeys: Object.keys(environment.data ?? {}),
    readOnly,
  };
  const container = block.type === 'loop' || block.type === 'parallel';
  const look = container ? { icon: block.type === 'loop' ? 'LoopIcon' : 'ParallelIcon', color: block.type === 'loop' ? '#2FB3FF' : '#FEE12B', name: block.type === 'loop' ? 'Loop' : 'Parallel' } : { icon: definition?.icon ?? '', color: definition?.bgColor, name: definition?.name ?? block.type };
  return (
    <section className="panel block-panel" aria-label="Block">
      <fieldset className="plain-fieldset" disabled={readOnly}>
      <div className="block-panel-head">
        <BlockIcon icon={look.icon} color={look.color} name={look.name} size={32} />
        <div>
          <h2>{block.name}</h2>
          <p className="muted">
            {look.name} <code>{block.type}</code>
          </p>
        </div>
      </div>
      {definition?.description && <p className="block-desc">{definition.description}</p>}
      {/* Keyed by the name too, so a rename from elsewhere resets the field. */}
      <RenameForm key={block.name} block={block} edit={edit} />
      <BlockSettings block={block} definition={definition} edit={edit} />
      {problems.unplaced.map((message) => (
        <p key={message} className="form-problem" role="alert">
          {message}
        </p>
      ))}
      <FormContext.Provider value={env}>
        {container && <ContainerSettings block={block} edit={edit} />}
        <div className="block-form">
          {fields.map((field) => (
            <SubBlockField
              key={`${field.id}@${definition?.subBlocks.indexOf(field) ?? 0}`}
              field={field}
              value={fieldValue(block, field)}
              problems={problems.byField.get(field.id)}
              onChange={(value) => edit([setValue(block.id, definition, field.id, value)])}
            />
          ))}
          {definition && fields.length === 0 && <p className="muted">This block has no fields to fill.</p>}
        </div>
      </FormContext.Provider>
      </fieldset>
    </section>
  );
}
