import { deferredToRun, fieldOfMessage as paramOfMessage, getBlock, type SubBlockConfig, type ValidationResult } from '@weft/catalog';
import { fieldOfMessage } from './blockForm';

/**
 * Every message `POST /api/blocks/validate` has about a block's values, not only its first: asked
 * again with each named field set aside (as `validateWrittenParams` does for the deploy check) until
 * the answer is a success, names a field already set aside (its "required" once emptied is not a
 * problem of the user's value), or names no field of the values. A message about a field holding a
 * reference or `{{KEY}}` is left out (`deferredToRun`: the runner checks the resolved value).
 */
export async function validationMessages(blockType: string, values: Record<string, unknown>, validate: (params: Record<string, unknown>) => Promise<ValidationResult>): Promise<string[]> {
  const config = getBlock(blockType);
  const messages: string[] = [];
  const aside = new Set<string>();
  let given = values;
  for (let round = 0; round <= Object.keys(values).length; round++) {
    const answer = await validate(given);
    if (answer.success) break;
    const field = config ? paramOfMessage(config, answer.error, values) : undefined;
    if (field !== undefined && aside.has(field)) break;
    if (!deferredToRun(blockType, values, answer.error) && !messages.includes(answer.error)) messages.push(answer.error);
    if (field === undefined || !(field in given)) break;
    aside.add(field);
    const { [field]: _setAside, ...rest } = given;
    given = rest;
  }
  return messages;
}

/** The messages by the form field they are about (the fields shown now), and those about none of them, for the form's head. */
export function messagesByField(fields: readonly SubBlockConfig[], messages: readonly string[]): { byField: Map<string, string[]>; unplaced: string[] } {
  const byField = new Map<string, string[]>();
  const unplaced: string[] = [];
  for (const message of messages) {
    const field = fieldOfMessage(fields, message);
    if (field === undefined) unplaced.push(message);
    else byField.set(field, [...(byField.get(field) ?? []), message]);
  }
  return { byField, unplaced };
}
