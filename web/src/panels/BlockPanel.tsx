import { useState, type FormEvent } from 'react';
import type { BlockState, Command } from '@weft/workflow';
import type { BlockDefinition } from '../api';
import { newId } from '../collab/useWorkflowSession';
import { fieldValue, formFields, hasAdvancedFields } from './blockForm';
import { SubBlockField } from './SubBlockField';

type Edit = (commands: Command[]) => void;

function RenameForm({ block, edit }: { block: BlockState; edit: Edit }) {
  const [name, setName] = useState(block.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== '' && name !== block.name) edit([{ type: 'renameBlock', id: block.id, name }]);
  };
  return (
    <form className="rename" onSubmit={submit}>
      <input aria-label="Block name" value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit">Rename</button>
    </form>
  );
}

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <label>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** The block's settings: enabled, advanced mode (where it has advanced fields), width and handles, and duplicating it. */
function BlockSettings({ block, definition, edit }: { block: BlockState; definition: BlockDefinition | undefined; edit: Edit }) {
  const { id } = block;
  return (
    <div className="block-settings">
      <Toggle label="Enabled" checked={block.enabled} onChange={() => edit([{ type: 'toggleEnabled', id }])} />
      {definition && hasAdvancedFields(definition) && (
        <Toggle label="Advanced mode" checked={block.advancedMode} onChange={(advancedMode) => edit([{ type: 'setAdvancedMode', id, advancedMode }])} />
      )}
      <Toggle label="Wide" checked={block.isWide} onChange={(isWide) => edit([{ type: 'setWide', id, isWide }])} />
      <Toggle label="Horizontal handles" checked={block.horizontalHandles} onChange={() => edit([{ type: 'toggleHandles', id }])} />
      <button type="button" onClick={() => edit([{ type: 'duplicateBlock', id, newId: newId() }])}>
        Duplicate block
      </button>
    </div>
  );
}

/** The one selected block: its name and type, its settings and the fields its form shows now, all edited live. */
export function BlockPanel({ block, definition, edit }: { block: BlockState; definition: BlockDefinition | undefined; edit: Edit }) {
  const fields = definition ? formFields(definition, block) : [];
  return (
    <section className="panel block-panel" aria-label="Block">
      <h2>{block.name}</h2>
      <p className="muted">
        {definition?.name ?? block.type} <code>{block.type}</code>
      </p>
      {/* Keyed by the name too, so a rename from elsewhere resets the field. */}
      <RenameForm key={block.name} block={block} edit={edit} />
      <BlockSettings block={block} definition={definition} edit={edit} />
      <div className="block-form">
        {fields.map((field) => (
          <SubBlockField
            key={`${field.id}@${definition?.subBlocks.indexOf(field) ?? 0}`}
            field={field}
            value={fieldValue(block, field)}
            onChange={(value) => edit([{ type: 'setSubBlockValue', id: block.id, subBlockId: field.id, value }])}
          />
        ))}
        {definition && fields.length === 0 && <p className="muted">This block has no fields to fill.</p>}
      </div>
    </section>
  );
}
