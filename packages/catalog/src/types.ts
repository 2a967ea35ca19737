/** Value types a block input or output may carry (spec 001 §1). */
export type ValueType = 'string' | 'number' | 'boolean' | 'json' | 'array' | 'any';

/** Every value type, for checks and schemas. */
export const VALUE_TYPES = ['string', 'number', 'boolean', 'json', 'array', 'any'] as const satisfies readonly ValueType[];

/** The three toolbar sections a block lives in. */
export type BlockCategory = 'blocks' | 'tools' | 'triggers';

/** Field kinds of a block form (spec 001 §2 "Field types"). */
export type SubBlockType =
  | 'short-input'
  | 'long-input'
  | 'dropdown'
  | 'combobox'
  | 'slider'
  | 'number'
  | 'switch'
  | 'table'
  | 'code'
  | 'condition-input'
  | 'multi-select'
  | 'checkbox-list'
  | 'file-upload'
  | 'oauth-input'
  | 'file-selector'
  | 'folder-selector'
  | 'project-selector'
  | 'channel-selector'
  | 'knowledge-base-selector'
  | 'document-selector'
  | 'workflow-selector'
  | 'tool-input'
  | 'webhook-config'
  | 'schedule-config'
  | 'input-format'
  // Not in spec 001 §2's list, whose "webhook config" is an object ({path, secret, …}, the webhook block's):
  // the starter's webhookPath and webhookSecret are strings (spec 000 §2), each drawn as the webhook
  // block's path (with the URL it is called at) and secret (masked, with generate and copy).
  | 'webhook-path'
  | 'webhook-secret';

/** Every sub-block type, for checks and schemas. */
export const SUB_BLOCK_TYPES = [
  'short-input', 'long-input', 'dropdown', 'combobox', 'slider', 'number', 'switch', 'table', 'code', 'condition-input',
  'multi-select', 'checkbox-list', 'file-upload', 'oauth-input', 'file-selector', 'folder-selector',
  'project-selector', 'channel-selector', 'knowledge-base-selector', 'document-selector',
  'workflow-selector', 'tool-input', 'webhook-config', 'schedule-config', 'input-format',
  'webhook-path', 'webhook-secret',
] as const satisfies readonly SubBlockType[];

/** Basic mode picks from a selector; advanced mode types an id by hand. */
export type SubBlockMode = 'basic' | 'advanced';

/** A scalar a condition compares against. */
export type ConditionValue = string | number | boolean;

/** Shows a field only when another field has (or, with `not`, lacks) a value; `and` adds a second test. */
export interface SubBlockCondition {
  field: string;
  value: ConditionValue | readonly ConditionValue[];
  /** Also holds when the field's text starts with this, case-insensitively (e.g. `azure/` for any Azure deployment). */
  startsWith?: string;
  not?: boolean;
  and?: {
    field: string;
    value: ConditionValue | readonly ConditionValue[] | undefined;
    not?: boolean;
  };
}

/** One choice of a dropdown, combobox, multi-select or checkbox list. */
export interface SubBlockOption {
  id: string;
  label: string;
}

/** One configurable field of a block form, with every §2 attribute. */
export interface SubBlockConfig {
  id: string;
  title?: string;
  type: SubBlockType;
  layout?: 'full' | 'half';
  placeholder?: string;
  description?: string;
  options?: readonly SubBlockOption[];
  condition?: SubBlockCondition;
  mode?: SubBlockMode;
  password?: boolean;
  min?: number;
  max?: number;
  step?: number;
  integer?: boolean;
  defaultValue?: unknown;
  rows?: number;
  columns?: readonly string[];
  acceptedTypes?: string;
  multiple?: boolean;
  maxSize?: number;
  hidden?: boolean;
  /** Whether block outputs may be dropped into this field as connections (false for secret keys, §2). */
  connectionDroppable?: boolean;
  /** OAuth account pickers and selectors: which provider and service they list. */
  provider?: string;
  serviceId?: string;
  requiredScopes?: readonly string[];
  /** Whether the selector lists the chat models known to the catalogue. */
  modelOptions?: boolean;
  /**
   * Selectors: the fields whose choice this list is of (a Jira issue of the chosen project, a Teams
   * channel of the chosen team). A user's change of one of them empties this field in the same edit,
   * so a choice of the old project is not kept under the new one.
   */
  dependsOn?: readonly string[];
}

/** Chooses a tool id from the block's parameters. */
export type ToolSelector = (params: Record<string, unknown>) => string;

/** Maps the block's parameters to the chosen tool's parameters. */
export type ParamsMapper = (params: Record<string, unknown>) => Record<string, unknown>;

/** A declared block input. */
export interface BlockInput {
  type: ValueType;
  required: boolean;
}

/** A block definition: identity, form, tools it may call, inputs and outputs. */
export interface BlockConfig {
  type: string;
  name: string;
  description: string;
  longDescription: string;
  docsLink: string;
  category: BlockCategory;
  bgColor: string;
  icon: string;
  hideFromToolbar?: boolean;
  subBlocks: readonly SubBlockConfig[];
  tools: {
    access: readonly string[];
    config?: {
      tool?: ToolSelector;
      params?: ParamsMapper;
    };
  };
  inputs: Record<string, BlockInput>;
  outputs: Record<string, ValueType>;
}

/** Tool parameter types (spec 001 §3 "Tool definition"). */
export type ToolParamType = 'string' | 'number' | 'boolean' | 'json' | 'array' | 'object';

/** Who may supply a tool parameter: the user, the user or the model, or the system (hidden). */
export type ParamVisibility = 'user-only' | 'user-or-llm' | 'hidden';

/** One tool parameter. */
export interface ToolParam {
  type: ToolParamType;
  required: boolean;
  visibility: ParamVisibility;
  description: string;
  default?: unknown;
}

/** HTTP methods a tool request may use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** Request metadata of a tool; `url` is a template with `{param}` placeholders. */
export interface ToolRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  isInternalRoute: boolean;
}

/** OAuth requirement of a tool: the provider and the scopes it needs (§6). */
export interface ToolOAuth {
  required: boolean;
  provider: string;
  scopes: readonly string[];
}

/** Metadata of one tool the runner can call. */
export interface ToolConfig {
  id: string;
  name: string;
  description: string;
  version: string;
  params: Record<string, ToolParam>;
  request: ToolRequest;
  oauth?: ToolOAuth;
}

/** Answer of a block parameter check. */
export type ValidationResult = { success: true } | { success: false; error: string };
