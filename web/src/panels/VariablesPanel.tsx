import { useState, type FormEvent } from 'react';
import type { Command, Variable, VariableType } from '@weft/workflow';
import { newId } from '../collab/useWorkflowSession';
import { Icon } from '../ui/icons';
import { useDraft } from './useDraft';
import { valueText, variableUpdate, VARIABLE_TYPES, type VariableFields } from './variables';

type Edit = (commands: Command[]) => void;

/** A text field that commits on Enter or leaving it; a change from elsewhere replaces what it shows unless the user is typing in it. */
function CommitField({ label, value, invalid, className, placeholder, onCommit }: { label: string; value: string; invalid?: string; className?: string; placeholder?: string; onCommit(text: string): void }) {
  const { draft, change, onFocus, onBlur, commit } = useDraft(value, (text) => {
    if (text !== value) onCommit(text);
    return true;
  });
  return (
    <input
      className={`input compact ${className ?? ''}`}
      aria-label={label}
      aria-invalid={invalid !== undefined}
      aria-describedby={invalid}
      value={draft}
      onChange={(e) => change(e.target.value)}
      onFocus={onFocus}
      onBlur={onBlur}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
      placeholder={placeholder}
    />
  );
}

function TypeSelect({ label, value, onChange }: { label: string; value: VariableType; onChange(type: VariableType): void }) {
  return (
    <select className="input compact select" aria-label={label} value={value} onChange={(e) => onChange(VARIABLE_TYPES.find((t) => t === e.target.value) ?? 'plain')}>
      {VARIABLE_TYPES.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
    </select>
  );
}

function VariableRow({ variable, edit }: { variable: Variable; edit: Edit }) {
  const { id, name, validationError } = variable;
  const update = (fields: Partial<VariableFields>) => {
    const command = variableUpdate(variable, fields);
    if (command) edit([command]);
  };
  const errorId = `variable-error-${id}`;
  return (
    <li className="variable">
      <CommitField className="mono" label={`Name of ${name}`} value={name} onCommit={(text) => update({ name: text })} />
      <TypeSelect label={`Type of ${name}`} value={variable.type} onChange={(variableType) => update({ variableType })} />
      <span className="variable-actions">
        <button type="button" className="icon-btn" aria-label={`Duplicate ${name}`} title="Duplicate" onClick={() => edit([{ type: 'duplicateVariable', id, newId: newId() }])}>
          <Icon name="copy" size={14} />
        </button>
        <button type="button" className="icon-btn danger" aria-label={`Delete ${name}`} title="Delete" onClick={() => edit([{ type: 'deleteVariable', id }])}>
          <Icon name="trash" size={14} />
        </button>
      </span>
      <CommitField className="variable-value mono" label={`Value of ${name}`} placeholder="value" value={valueText(variable.value)} invalid={validationError && errorId} onCommit={(value) => update({ value })} />
      {validationError && (
        <span className="variable-error" id={errorId}>
          {validationError}
        </span>
      )}
    </li>
  );
}

const EMPTY: VariableFields = { name: '', variableType: 'plain', value: '' };

/** A new variable; an empty name gets the next free `variableN` from the domain. */
function AddVariableForm({ edit }: { edit: Edit }) {
  const [fields, setFields] = useState(EMPTY);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    edit([{ type: 'addVariable', id: newId(), ...fields }]);
    setFields(EMPTY);
  };
  return (
    <form className="variable variable-new" aria-label="New variable" onSubmit={submit}>
      <input className="input compact mono" aria-label="New variable name" placeholder="name (optional)" value={fields.name} onChange={(e) => setFields({ ...fields, name: e.target.value })} />
      <TypeSelect label="New variable type" value={fields.variableType} onChange={(variableType) => setFields({ ...fields, variableType })} />
      <input className="input compact mono variable-value" aria-label="New variable value" placeholder="value" value={fields.value} onChange={(e) => setFields({ ...fields, value: e.target.value })} />
      <button type="submit" className="btn btn-sm variable-add">
        <Icon name="plus" size={12} /> Add variable
      </button>
    </form>
  );
}

/** The workflow's variables: add, rename, retype, change, duplicate and delete; each shows its validation message. */
export function VariablesPanel({ variables, edit }: { variables: Record<string, Variable>; edit: Edit }) {
  return (
    <section className="panel" aria-label="Variables">
      <h2>Variables</h2>
      {Object.keys(variables).length === 0 && <p className="muted variables-empty">Values this workflow's blocks read as &lt;variable.name&gt;.</p>}
      <ul className="variables">
        {Object.values(variables).map((variable) => (
          <VariableRow key={variable.id} variable={variable} edit={edit} />
        ))}
      </ul>
      <AddVariableForm edit={edit} />
    </section>
  );
}
