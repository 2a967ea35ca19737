import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { ancestors, copyName, failure, isUpgradeRequired, yamlFileName } from './workflowActions';

describe('sidebar workflow actions', () => {
  it('word failures as the spec does', () => {
    expect(failure('create', new Error('boom'))).toBe('Failed to create workflow: boom');
    expect(failure('deploy', new Error('taken'))).toBe('Failed to deploy workflow: taken');
    expect(failure('duplicate', new Error('x'))).toBe('Failed to duplicate workflow: x');
    expect(failure('load', new Error('y'))).toBe('Failed to load workflows: y');
  });
  it('tell the plan limit from other refusals', () => {
    expect(isUpgradeRequired(new ApiError(403, 'limit', { upgradeRequired: true }))).toBe(true);
    expect(isUpgradeRequired(new ApiError(403, 'denied', {}))).toBe(false);
    expect(isUpgradeRequired(new Error('x'))).toBe(false);
  });
  it('name copies and exports', () => {
    expect(copyName('Mail triage')).toBe('Mail triage (Copy)');
    expect(yamlFileName('Mail triage / v2')).toBe('Mail-triage-v2.yaml');
    expect(yamlFileName('///')).toBe('workflow.yaml');
  });
  it('walk folder ancestors without looping', () => {
    const parents: Record<string, string | null> = { a: null, b: 'a', c: 'b', x: 'y', y: 'x' };
    expect(ancestors('c', (id) => parents[id] ?? null)).toEqual(['c', 'b', 'a']);
    expect(ancestors('x', (id) => parents[id] ?? null)).toEqual(['x', 'y']);
  });
});
