import { visibleSubBlocks, type SubBlockConfig, type SubBlockType } from '@weft/catalog';
import type { BlockState } from '@weft/workflow';
import type { BlockDefinition } from '../api';

/** How the block panel draws a field. */
export type FieldKind = 'text' | 'textarea' | 'select' | 'combobox' | 'number' | 'switch' | 'json';

/** The text a widget edits its value as; widgets without a text of their own are edited as JSON. */
const KIND_OF_WIDGET: Partial<Record<FieldWidget, FieldKind>> = {
  text: 'text',
  textarea: 'textarea',
  code: 'textarea',
  select: 'select',
  combobox: 'combobox',
  slider: 'number',
  number: 'number',
  switch: 'switch',
  'webhook-path': 'text',
  'webhook-secret': 'text',
};

/** The input a sub-block type gets; types without an input of their own are edited as JSON. */
export function fieldKind(type: SubBlockType): FieldKind {
  return KIND_OF_WIDGET[fieldWidget(type)] ?? 'json';
}

/** subBlockId → value of a block, as the catalogue's conditions read them. */
export function blockValues(block: BlockState): Record<string, unknown> {
  return Object.fromEntries(Object.values(block.subBlocks).map((s) => [s.id, s.value]));
}

/** The fields the block's form shows now: per its definition, its values and its advanced mode. */
export function formFields(definition: BlockDefinition, block: BlockState): SubBlockConfig[] {
  return visibleSubBlocks(definition, blockValues(block), block.advancedMode ? 'advanced' : 'basic');
}

/** Whether the block has fields that only advanced mode shows, so the switch is worth offering. */
export function hasAdvancedFields(definition: BlockDefinition): boolean {
  return definition.subBlocks.some((s) => s.mode === 'advanced');
}

/** A field's value: the block's own, or the definition's default when the block has none. */
export function fieldValue(block: BlockState, field: SubBlockConfig): unknown {
  return block.subBlocks[field.id]?.value ?? field.defaultValue ?? null;
}

/** A value as the field's text: strings as they are, unset as empty, anything else as JSON (indented in JSON fields). */
export function fieldText(kind: FieldKind, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && kind !== 'json') return value;
  return kind === 'json' ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/** What a field's text means: the value to send, or why there is none. */
export type ParsedField = { ok: true; value: unknown } | { ok: false; error: string };

function parseNumber(field: SubBlockConfig, text: string): ParsedField {
  if (text.trim() === '') return { ok: true, value: null };
  const value = Number(text);
  if (!Number.isFinite(value)) return { ok: false, error: 'Enter a number' };
  if (field.integer === true && !Number.isInteger(value)) return { ok: false, error: 'Enter a whole number' };
  const { min, max } = field;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const range = min !== undefined && max !== undefined ? `from ${min} to ${max}` : min !== undefined ? `of at least ${min}` : `of at most ${max}`;
    return { ok: false, error: `Enter a number ${range}` };
  }
  return { ok: true, value };
}

function parseJson(text: string): ParsedField {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    const value: unknown = JSON.parse(text);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The value a field's text stands for; numbers are checked against the field's range, JSON must parse. */
export function parseField(field: SubBlockConfig, kind: FieldKind, text: string): ParsedField {
  switch (kind) {
    case 'number':
      return parseNumber(field, text);
    case 'json':
      return parseJson(text);
    case 'text':
    case 'textarea':
    case 'select':
    case 'combobox':
      return { ok: true, value: text };
    case 'switch':
      return { ok: true, value: text === 'true' };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/** Whether two field values are the same, compared as JSON (values are JSON from the server). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The widget each sub-block type of spec 001 §2 is edited with. */
export type FieldWidget =
  | 'text' | 'textarea' | 'select' | 'combobox' | 'slider' | 'number' | 'switch' | 'table' | 'code' | 'conditions'
  | 'multi' | 'file' | 'oauth' | 'resource-selector' | 'knowledge-base' | 'document' | 'workflow' | 'tools' | 'webhook' | 'webhook-path' | 'webhook-secret' | 'schedule' | 'input-format';

export function fieldWidget(type: SubBlockType): FieldWidget {
  switch (type) {
    case 'short-input':
      return 'text';
    case 'long-input':
      return 'textarea';
    case 'dropdown':
      return 'select';
    case 'combobox':
      return 'combobox';
    case 'slider':
      return 'slider';
    case 'number':
      return 'number';
    case 'switch':
      return 'switch';
    case 'table':
      return 'table';
    case 'code':
      return 'code';
    case 'condition-input':
      return 'conditions';
    case 'multi-select':
    case 'checkbox-list':
      return 'multi';
    case 'file-upload':
      return 'file';
    case 'oauth-input':
      return 'oauth';
    case 'file-selector':
    case 'folder-selector':
    case 'project-selector':
    case 'channel-selector':
      return 'resource-selector';
    case 'knowledge-base-selector':
      return 'knowledge-base';
    case 'document-selector':
      return 'document';
    case 'workflow-selector':
      return 'workflow';
    case 'tool-input':
      return 'tools';
    case 'webhook-config':
      return 'webhook';
    case 'schedule-config':
      return 'schedule';
    case 'webhook-path':
      return 'webhook-path';
    case 'webhook-secret':
      return 'webhook-secret';
    case 'input-format':
      return 'input-format';
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

/** Which field a validation message is about: the first whose title or id it names. */
export function fieldOfMessage(fields: readonly SubBlockConfig[], message: string): string | undefined {
  const text = message.toLowerCase();
  const named = (s: string | undefined) => s !== undefined && s.length > 1 && text.includes(s.toLowerCase());
  return (fields.find((f) => named(f.title)) ?? fields.find((f) => named(f.id)))?.id;
}

/**
 * What the block's name box shows once a rename is submitted: the typed name (the rename takes it, or
 * says why not: a clash is the user's to fix), but the current name again for a blank one, which is
 * never taken (the box is not left empty under the refusal's toast).
 */
export const nameAfterRename = (typed: string, current: string): string => (typed.trim() === '' ? current : typed);
