import { getBlock } from '../blocks/registry.js';
import { hasRetries, retriesError } from '../blocks/retries.js';
import { text } from '../paramValues.js';
import { RUN_TIME_VALUE_SOURCE } from '../codeReferences.js';
import type { BlockConfig, ValidationResult } from '../types.js';
import { validateAgent } from './agent.validate.js';
import { validateAirtable } from './airtable.validate.js';
import { validateConfluence } from './confluence.validate.js';
import { validateFunction } from './functionTimeout.validate.js';
import { validateDiscord } from './discord.validate.js';
import { validateFile } from './file.validate.js';
import { validateGoogleDocs } from './googleDocs.validate.js';
import { validateImageGenerator } from './imageGenerator.validate.js';
import { validateJira } from './jira.validate.js';
import { validateKnowledge } from './knowledge.validate.js';
import { validateLinear } from './linear.validate.js';
import { validateMem0 } from './mem0.validate.js';
import { validateMemory } from './memory.validate.js';
import { validateMicrosoftTeams } from './microsoftTeams.validate.js';
import { validateMistralParse } from './mistralParse.validate.js';
import { validateModelChoice } from './modelChoice.validate.js';
import { validateNotion } from './notion.validate.js';
import { validateResponse } from './responseStatus.validate.js';
import { validateTwilioSms, validateWhatsapp } from './required.validate.js';
import { validateS3 } from './s3.validate.js';
import { validateSlack } from './slack.validate.js';
import { validateGoogleSheets, validateMicrosoftExcel } from './spreadsheet.validate.js';
import { validateSupabase } from './supabase.validate.js';
import { validateWealthbox } from './wealthbox.validate.js';

/** A block's parameter check: the spec's message when the parameters are unusable, else undefined. */
export type BlockValidator = (params: Record<string, unknown>) => string | undefined;

const VALIDATORS: Readonly<Record<string, BlockValidator>> = {
  agent: validateAgent,
  airtable: validateAirtable,
  confluence: validateConfluence,
  discord: validateDiscord,
  evaluator: validateModelChoice,
  file: validateFile,
  function: validateFunction,
  google_docs: validateGoogleDocs,
  google_sheets: validateGoogleSheets,
  image_generator: validateImageGenerator,
  jira: validateJira,
  knowledge: validateKnowledge,
  linear: validateLinear,
  mem0: validateMem0,
  memory: validateMemory,
  microsoft_excel: validateMicrosoftExcel,
  microsoft_teams: validateMicrosoftTeams,
  mistral_parse: validateMistralParse,
  notion: validateNotion,
  response: validateResponse,
  s3: validateS3,
  slack: validateSlack,
  supabase: validateSupabase,
  translate: validateModelChoice,
  twilio_sms: validateTwilioSms,
  wealthbox: validateWealthbox,
  whatsapp: validateWhatsapp,
};

/** An operation the block does not offer, answered with the block's own invalid-operation message. */
function operationError(block: BlockConfig, params: Record<string, unknown>): string | undefined {
  const field = block.subBlocks.find((s) => s.id === 'operation');
  const select = block.tools.config?.tool;
  if (!field?.options || !select || text(params.operation) === '') return undefined;
  if (field.options.some((o) => o.id === text(params.operation))) return undefined;
  try {
    select(params);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * Checks a block's parameters before it runs (and for the editor's inline checks); answers the
 * spec's message word for word on failure. An unknown block type is refused.
 */
export function validateBlockParams(blockType: string, params: Record<string, unknown>): ValidationResult {
  const block = getBlock(blockType);
  if (!block) return { success: false, error: `Unknown block type: ${blockType}` };
  const error = operationError(block, params) ?? VALIDATORS[blockType]?.(params) ?? (hasRetries(block) ? retriesError(params) : undefined);
  return error === undefined ? { success: true } : { success: false, error };
}

/** The field a validation message is about: the first whose title or quoted/spaced id it names, else `operation` or `parameters`. */
export function fieldOfMessage(config: BlockConfig, message: string, values: Record<string, unknown>): string {
  const lower = message.toLowerCase();
  const hit = config.subBlocks.find((s) => (s.title && lower.includes(s.title.toLowerCase())) || lower.includes(`"${s.id.toLowerCase()}"`) || lower.includes(` ${s.id.toLowerCase()} `));
  if (hit) return hit.id;
  return 'operation' in values && lower.includes('operation') ? 'operation' : 'parameters';
}

/**
 * A `<block.path>` reference or a `{{KEY}}` environment variable: a value only known when the block runs.
 * Names and keys as the runner reads them (RUN_TIME_VALUE_SOURCE: `<agent-2.content>`, `<résumé.text>`,
 * `{{API-KEY}}`), a reference with at least one path step (so `<b>` in text stays text).
 */
const RUN_TIME_VALUE = new RegExp(RUN_TIME_VALUE_SOURCE);

/** Whether a field's value (text, or text inside a list or object) holds a reference or an environment variable. */
export function holdsRunTimeValue(value: unknown): boolean {
  if (typeof value === 'string') return RUN_TIME_VALUE.test(value);
  if (Array.isArray(value)) return value.some(holdsRunTimeValue);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsRunTimeValue);
  return false;
}

/**
 * Whether a validation error about parameters as written in the editor is about a field whose value
 * is only known when the block runs (it holds a reference or `{{KEY}}`): the runner checks the
 * resolved value then, so the editor and the deploy check leave it alone.
 */
export function deferredToRun(blockType: string, values: Record<string, unknown>, error: string): boolean {
  const config = getBlock(blockType);
  if (!config) return false;
  const field = fieldOfMessage(config, error, values);
  return holdsRunTimeValue(values[field]);
}

/**
 * `validateBlockParams` for parameters as written in the editor (deploy checks): an error about a
 * field that holds a reference or `{{KEY}}` is left to the runner, which checks the resolved value;
 * that field is set aside and the rest checked again, so a later field's error still shows.
 */
export function validateWrittenParams(blockType: string, values: Record<string, unknown>): ValidationResult {
  const config = getBlock(blockType);
  let given = values;
  for (let round = 0; round <= Object.keys(values).length; round++) {
    const checked = validateBlockParams(blockType, given);
    if (checked.success || !checked.error || !config) return checked;
    const field = fieldOfMessage(config, checked.error, values);
    if (!holdsRunTimeValue(values[field])) return checked;
    if (!(field in given)) return { success: true };
    const { [field]: _setAside, ...rest } = given;
    given = rest;
  }
  return { success: true };
}

/** Block types that have their own §5 rules. */
export function validatedBlockTypes(): string[] {
  return Object.keys(VALIDATORS).sort();
}
