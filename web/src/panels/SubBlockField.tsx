import { useId, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SubBlockConfig } from '@weft/catalog';
import { api } from '../api';
import { fieldKind, fieldText, fieldWidget, parseField, sameValue, type FieldKind } from './blockForm';
import { useDraft } from './useDraft';
import { suggestedKey } from '../modelKeys';
import { ComboboxField, modelGroups, MultiField, SelectField, SliderField, SwitchField } from './fields/Choice';
import { CodeField } from './fields/CodeField';
import { useFormBlock, useFormEnv } from './fields/FormContext';
import { FileUploadField, OAuthField, WebhookConfigField, WebhookPathField, WebhookSecretField, WorkflowSelectorField } from './fields/Integrations';
import { DocumentField, KnowledgeBaseField } from './fields/Knowledge';
import { RefText } from './fields/RefText';
import { ResourceSelectorField } from './fields/ResourceSelector';
import { ScheduleConfigField } from './fields/ScheduleConfig';
import { ConditionField, InputFormatField, TableField } from './fields/Structured';
import { ToolInputField } from './fields/ToolInput';

interface FieldProps {
  field: SubBlockConfig;
  value: unknown;
  /** Sends a new value for the field. */
  onChange(value: unknown): void;
  /** The validation messages about this field, every one shown. */
  problems?: readonly string[];
}

/** The field's name as its label shows it. */
const title = (field: SubBlockConfig) => field.title ?? field.id;

/** A field edited as text and checked (numbers, and JSON for anything without a widget): sent on leaving it or Enter. */
function TextField({ field, kind, value, onChange }: FieldProps & { kind: FieldKind }) {
  const id = useId();
  const send = (text: string) => {
    const parsed = parseField(field, kind, text);
    if (!parsed.ok) return false;
    if (!sameValue(parsed.value, value)) onChange(parsed.value);
    return true;
  };
  const { draft, dirty, change, onFocus, onBlur, commit } = useDraft(fieldText(kind, value), send);
  const parsed = dirty ? parseField(field, kind, draft) : undefined;
  const error = parsed && !parsed.ok ? parsed.error : undefined;
  const errorId = `${id}-error`;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    e.preventDefault();
    commit();
  };
  const common = { id, value: draft, placeholder: field.placeholder, 'aria-invalid': error !== undefined, 'aria-describedby': error && errorId, onFocus, onBlur, onKeyDown };
  return (
    <div className={`field field-${kind}`}>
      <label htmlFor={id}>{title(field)}</label>
      {kind === 'json' ? (
        <textarea {...common} className="input mono" rows={field.rows ?? 4} spellCheck={false} onChange={(e) => change(e.target.value)} />
      ) : (
        <input {...common} className="input" type={kind === 'number' ? 'number' : 'text'} min={field.min} max={field.max} step={field.step ?? 'any'} autoComplete="off" onChange={(e) => change(e.target.value)} />
      )}
      {error && (
        <span className="field-error" id={errorId} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** Whether a field picks a model (its options are the catalogue's chat models). */
const picksModel = (field: SubBlockConfig) => field.modelOptions === true || field.id === 'model';

/**
 * A model combobox: the catalogue's models by provider, then the models the local Ollama server
 * lists (a model no provider claims runs there), then the field's own other options.
 */
function ModelComboboxField(props: { field: SubBlockConfig; label: string; value: unknown; onChange(value: unknown): void }) {
  const env = useFormEnv();
  const local = useQuery({ queryKey: ['local-models'], queryFn: api.localModels, staleTime: 60_000 });
  const groups = modelGroups(env.providers);
  const known = new Set(groups.flatMap((g) => g.options.map((o) => o.id)));
  const extra = (options: Array<{ id: string; label: string }>) => options.filter((o) => !known.has(o.id) && known.add(o.id));
  const ollama = extra((local.data ?? []).map((m) => ({ id: m, label: m })));
  const rest = extra([...(props.field.options ?? [])]);
  return (
    <ComboboxField
      {...props}
      groups={[...groups, ...(ollama.length > 0 ? [{ label: 'Local (Ollama)', options: ollama }] : []), ...(rest.length > 0 ? [{ label: groups.length > 0 ? 'Other' : props.label, options: rest }] : [])]}
    />
  );
}

/**
 * Under a model API Key field: a button naming the variable the user keeps that provider's key in
 * (Settings › Environment variables), which fills the field with a reference to it — a kept key is
 * never used unless the block names it, and this is the one click that does. Shown for an empty
 * field, and for one naming another provider's variable (the model was switched), which it replaces.
 */
function KeySuggestion({ value, onChange }: { value: unknown; onChange(value: unknown): void }) {
  const env = useFormEnv();
  const block = useFormBlock();
  const offer = env.readOnly ? undefined : suggestedKey(block.blockType, block.values.model, value, env.envKeys);
  if (!offer) return null;
  return (
    <div className="key-suggestion">
      {offer.replaces && (
        <span className="field-hint">
          {`{{${offer.replaces}}}`} is not a key for {offer.provider}.
        </span>
      )}
      <button type="button" className="btn btn-sm btn-ghost" onClick={() => onChange(`{{${offer.variable}}}`)}>
        Use {`{{${offer.variable}}}`} from your Settings
      </button>
    </div>
  );
}

/** One field of a block form, drawn by its sub-block type (spec 001 §2). */
function Widget(props: FieldProps) {
  const env = useFormEnv();
  const { field, value, onChange } = props;
  const label = title(field);
  const common = { field, label, value, onChange };
  const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  const sendText = (t: string) => {
    if (t !== text(value)) onChange(t);
    return true;
  };
  switch (fieldWidget(field.type)) {
    case 'text':
      return (
        <>
          <RefText field={field} label={label} value={text(value)} multiLine={false} send={sendText} />
          {field.id === 'apiKey' && field.password && <KeySuggestion value={value} onChange={onChange} />}
        </>
      );
    case 'textarea':
      return <RefText field={field} label={label} value={text(value)} multiLine send={sendText} />;
    case 'select': {
      if (!picksModel(field)) return <SelectField {...common} />;
      return <SelectField {...common} groups={modelGroups(env.providers)} />;
    }
    case 'combobox':
      return picksModel(field) ? <ModelComboboxField {...common} /> : <ComboboxField {...common} groups={field.options?.length ? [{ label, options: [...field.options] }] : []} />;
    case 'slider':
      return <SliderField {...common} />;
    case 'number':
      return <TextField {...props} kind="number" />;
    case 'switch':
      return <SwitchField {...common} />;
    case 'table':
      return <TableField {...common} />;
    case 'code':
      return <CodeField {...common} />;
    case 'conditions':
      return <ConditionField {...common} label={field.title ?? 'Conditions'} blockId={env.blockId} />;
    case 'multi':
      return <MultiField {...common} />;
    case 'file':
      return <FileUploadField {...common} />;
    case 'oauth':
      return <OAuthField {...common} />;
    case 'workflow':
      return <WorkflowSelectorField {...common} />;
    case 'resource-selector':
      return <ResourceSelectorField {...common} />;
    case 'knowledge-base':
      return <KnowledgeBaseField {...common} />;
    case 'document':
      return <DocumentField {...common} />;
    case 'tools':
      return <ToolInputField {...common} />;
    case 'webhook':
      return <WebhookConfigField {...common} />;
    case 'webhook-path':
      return <WebhookPathField {...common} />;
    case 'webhook-secret':
      return <WebhookSecretField {...common} />;
    case 'schedule':
      return <ScheduleConfigField field={field} label={label} />;
    case 'input-format':
      return <InputFormatField {...common} />;
    default:
      return <TextField {...props} kind={fieldKind(field.type)} />;
  }
}

/** A field with its validation messages from the server under it, one line each. */
export function SubBlockField(props: FieldProps) {
  const problems = props.problems ?? [];
  return (
    <div className={`field-wrap${props.field.layout === 'half' ? ' half' : ''}${problems.length > 0 ? ' has-problem' : ''}`} data-field={props.field.id}>
      <Widget {...props} />
      {problems.map((message) => (
        <span key={message} className="field-error" role="alert">
          {message}
        </span>
      ))}
    </div>
  );
}
