import { useState, type FormEvent } from 'react';
import type { Command, Variable, VariableType } from '@weft/workflow';
import { newId } from '../collab/useWorkflowSession';
import { useDraft } from './useDraft';
import { valueText, variableUpdate, VARIABLE_TYPES, type VariableFields } from './variables';

type Edit = (commands: Command[]) => void;

/** A text field that commits on Enter or leaving it; a change from elsewhere replaces what it shows unless the user is typing in it. */
function CommitField({ label, value, invalid, onCommit }: { label: string; value: string; invalid?: string; onCommit(text: string): void }) {
  const { draft, change, onFocus, onBlur, commit } = useDraft(value, (text) => {
    if (text !== value) onCommit(text);
    return true;
  });
  return (
    <input
      aria-label={label}
      aria-invalid={invalid !== undefined}
      aria-describedby={invalid}
      value={draft}
      onChange={(e) => change(e.target.value)}
      onFocus={onFocus}
      onBlur={onBlur}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
}

function TypeSelect({ label, value, onChange }: { label: string; value: VariableType; onChange(type: VariableType): void }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(VARIABLE_TYPES.find((t) => t === e.target.value) ?? 'plain')}>
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
      <CommitField label={`Name of ${name}`} value={name} onCommit={(text) => update({ name: text })} />
      <TypeSelect label={`Type of ${name}`} value={variable.type} onChange={(variableType) => update({ variableType })} />
      <CommitField label={`Value of ${name}`} value={valueText(variable.value)} invalid={validationError && errorId} onCommit={(value) => update({ value })} />
      <button type="button" aria-label={`Duplicate ${name}`} onClick={() => edit([{ type: 'duplicateVariable', id, newId: newId() }])}>
        Duplicate
      </button>
      <button type="button" aria-label={`Delete ${name}`} onClick={() => edit([{ type: 'deleteVariable', id }])}>
        Delete
      </button>
      {validationError && (
        <span className="error" id={errorId}>
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
    <form className="variable" aria-label="New variable" onSubmit={submit}>
      <input aria-label="New variable name" placeholder="name" value={fields.name} onChange={(e) => setFields({ ...fields, name: e.target.value })} />
      <TypeSelect label="New variable type" value={fields.variableType} onChange={(variableType) => setFields({ ...fields, variableType })} />
      <input aria-label="New variable value" placeholder="value" value={fields.value} onChange={(e) => setFields({ ...fields, value: e.target.value })} />
      <button type="submit">Add variable</button>
    </form>
  );
}

/** The workflow's variables: add, rename, retype, change, duplicate and delete; each shows its validation message. */
export function VariablesPanel({ variables, edit }: { variables: Record<string, Variable>; edit: Edit }) {
  return (
    <section className="panel" aria-label="Variables">
      <h2>Variables</h2>
      <ul className="variables">
        {Object.values(variables).map((variable) => (
          <VariableRow key={variable.id} variable={variable} edit={edit} />
        ))}
      </ul>
      <AddVariableForm edit={edit} />
    </section>
  );
}
