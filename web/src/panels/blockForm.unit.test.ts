import { describe, expect, it } from 'vitest';
import { getBlock, SUB_BLOCK_TYPES, type SubBlockConfig, type SubBlockType } from '@weft/catalog';
import type { BlockState } from '@weft/workflow';
import { fieldKind, fieldOfMessage, fieldWidget, fieldText, fieldValue, formFields, hasAdvancedFields, nameAfterRename, parseField, sameValue } from './blockForm';

function definition(type: string) {
  const found = getBlock(type);
  if (!found) throw new Error(`no ${type} block in the catalogue`);
  return found;
}

/** A block of `type` as a new one starts (default values), with `values` set over them. */
function block(type: string, values: Record<string, unknown> = {}, advancedMode = false): BlockState {
  const subBlocks = Object.fromEntries(
    definition(type).subBlocks.map((s) => [s.id, { id: s.id, type: s.type, value: s.id in values ? values[s.id] : (s.defaultValue ?? null) }]),
  );
  return {
    id: 'b1', type, name: 'Block 1', position: { x: 0, y: 0 }, subBlocks, outputs: {},
    enabled: true, horizontalHandles: true, isWide: false, height: 0, advancedMode, data: {},
  };
}

const shown = (type: string, values: Record<string, unknown> = {}, advancedMode = false) =>
  formFields(definition(type), block(type, values, advancedMode)).map((f) => f.id);

const slider: SubBlockConfig = { id: 'temperature', title: 'Temperature', type: 'slider', min: 0, max: 2, step: 0.1 };
const table: SubBlockConfig = { id: 'headers', title: 'Headers', type: 'table' };

describe('which fields the block panel shows', () => {
  it('shows an agent its basic fields, and its advanced ones only in advanced mode', () => {
    expect(shown('agent')).toEqual(['systemPrompt', 'userPrompt', 'model', 'temperature', 'maxTokens', 'tools', 'apiKey']);
    expect(shown('agent', {}, true)).toEqual(expect.arrayContaining(['memories', 'responseFormat']));
    expect(hasAdvancedFields(definition('agent'))).toBe(true);
    expect(hasAdvancedFields(definition('function'))).toBe(false);
  });

  it('offers the retry setting in advanced mode on blocks whose calls are retried, as a whole number from 0 to 5', () => {
    expect(shown('slack', {}, true)).toContain('retries');
    expect(shown('agent', {}, true)).toContain('retries');
    expect(shown('api', {}, true)).toContain('retries');
    expect(shown('slack')).not.toContain('retries');
    expect(shown('function', {}, true)).not.toContain('retries');
    const retries = definition('api').subBlocks.find((s) => s.id === 'retries');
    if (!retries) throw new Error('no retries field');
    expect(fieldKind(retries.type)).toBe('number');
    expect(parseField(retries, 'number', '4')).toEqual({ ok: true, value: 4 });
    expect(parseField(retries, 'number', '9')).toEqual({ ok: false, error: 'Enter a number from 0 to 5' });
    expect(parseField(retries, 'number', '1.5')).toEqual({ ok: false, error: 'Enter a whole number' });
    expect(fieldOfMessage(definition('api').subBlocks, 'Retries must be a whole number between 0 and 5')).toBe('retries');
  });

  it('follows the values the block holds now: another operation, another form', () => {
    expect(shown('slack', { authMethod: 'oauth' })).toContain('credential');
    expect(shown('slack', { authMethod: 'bot_token' })).toEqual(expect.arrayContaining(['botToken']));
    expect(shown('slack', { authMethod: 'bot_token' })).not.toContain('credential');
  });

  it('shows a field the block has no value for at its default', () => {
    const agent = block('agent');
    delete agent.subBlocks['temperature'];
    const temperature = definition('agent').subBlocks.find((s) => s.id === 'temperature');
    expect(temperature && fieldValue(agent, temperature)).toBe(0.7);
  });

  it('draws each sub-block type with an input of its own, and the rest as JSON', () => {
    const types: SubBlockType[] = ['short-input', 'long-input', 'code', 'dropdown', 'combobox', 'slider', 'switch', 'table', 'tool-input'];
    expect(types.map(fieldKind)).toEqual([
      'text', 'textarea', 'textarea', 'select', 'combobox', 'number', 'switch', 'json', 'json',
    ]);
  });

  it('gives every sub-block type of the catalogue a widget of its own', () => {
    const widgets = SUB_BLOCK_TYPES.map(fieldWidget);
    expect(widgets).not.toContain(undefined);
    expect(fieldWidget('condition-input')).toBe('conditions');
    expect(fieldWidget('tool-input')).toBe('tools');
    expect(fieldWidget('channel-selector')).toBe('resource-selector');
    expect(fieldWidget('knowledge-base-selector')).toBe('knowledge-base');
    expect(fieldWidget('document-selector')).toBe('document');
    expect(fieldWidget('checkbox-list')).toBe('multi');
    // The starter's webhook strings: their own widgets, edited as text where a plain form draws them.
    expect(fieldWidget('webhook-path')).toBe('webhook-path');
    expect(fieldKind('webhook-secret')).toBe('text');
    expect(definition('starter').subBlocks.filter((s) => s.id.startsWith('webhook')).map((s) => s.type)).toEqual(['webhook-path', 'webhook-secret', 'dropdown']);
  });

  it('puts a validation message on the field it names', () => {
    const fields = definition('agent').subBlocks;
    expect(fieldOfMessage(fields, 'Model is required')).toBe('model');
    expect(fieldOfMessage(fields, 'Something unrelated')).toBeUndefined();
  });
});

describe('a value as a field shows it and back', () => {
  it('shows text as it is, unset as empty, and other values as JSON', () => {
    expect(fieldText('textarea', 'You are terse.')).toBe('You are terse.');
    expect(fieldText('text', null)).toBe('');
    expect(fieldText('number', 0.7)).toBe('0.7');
    expect(fieldText('json', [{ cells: { Key: 'a' } }])).toBe('[\n  {\n    "cells": {\n      "Key": "a"\n    }\n  }\n]');
    expect(fieldText('json', 'text')).toBe('"text"');
  });

  it('reads text fields as they are typed', () => {
    expect(parseField({ id: 'p', type: 'long-input' }, 'textarea', 'line 1\nline 2')).toEqual({ ok: true, value: 'line 1\nline 2' });
  });

  it('reads numbers within the slider range, and refuses others with a message', () => {
    expect(parseField(slider, 'number', '1.5')).toEqual({ ok: true, value: 1.5 });
    expect(parseField(slider, 'number', '')).toEqual({ ok: true, value: null });
    expect(parseField(slider, 'number', '3')).toEqual({ ok: false, error: 'Enter a number from 0 to 2' });
    expect(parseField(slider, 'number', 'warm')).toEqual({ ok: false, error: 'Enter a number' });
    expect(parseField({ ...slider, integer: true }, 'number', '1.5')).toEqual({ ok: false, error: 'Enter a whole number' });
  });

  it('reads JSON, and says why when it does not parse', () => {
    expect(parseField(table, 'json', '[{"cells": {"Key": "a"}}]')).toEqual({ ok: true, value: [{ cells: { Key: 'a' } }] });
    expect(parseField(table, 'json', '  ')).toEqual({ ok: true, value: null });
    const bad = parseField(table, 'json', '[{"cells": ');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^Not valid JSON: /);
  });

  it('round-trips what it shows', () => {
    const value = { a: [1, 'two', null] };
    const back = parseField(table, 'json', fieldText('json', value));
    expect(back.ok && sameValue(back.value, value)).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue('1', 1)).toBe(false);
  });
});

describe('the block name box after a rename', () => {
  it('shows the current name again when the typed one is blank (refused, with a toast)', () => {
    expect(nameAfterRename('', 'Agent 1')).toBe('Agent 1');
    expect(nameAfterRename('   ', 'Agent 1')).toBe('Agent 1');
  });

  it('keeps a typed name (taken, or a clash for the user to fix)', () => {
    expect(nameAfterRename('Writer', 'Agent 1')).toBe('Writer');
  });
});
